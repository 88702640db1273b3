# memlab: set-up and the jobs the README names. Everything installs from
# pyproject.toml into ./.venv, so a fresh machine needs only python3 and make.
PYTHON ?= python3
VENV ?= .venv
EXTRAS ?= dev
comma := ,
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(subst $(comma),_,$(EXTRAS))

.PHONY: setup report demo test test-slow lint format ci clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	$(PY) -m ipykernel install --sys-prefix --name memlab --display-name "memlab" >/dev/null
	$(VENV)/bin/memlab warmup
	touch $@

report: setup
	$(VENV)/bin/memlab demo

demo: setup
	$(VENV)/bin/memlab demo

test: setup
	$(PY) -m pytest -q

test-slow: setup
	$(PY) -m pytest -q -m slow

lint: setup
	$(VENV)/bin/ruff check memlab tests benchmarks
	$(VENV)/bin/ruff format --check memlab tests benchmarks
	$(VENV)/bin/mypy

format: setup
	$(VENV)/bin/ruff check --fix memlab tests benchmarks
	$(VENV)/bin/ruff format memlab tests benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
