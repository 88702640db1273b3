# memlab: set-up and the jobs the README names. Everything installs from
# pyproject.toml into ./.venv, so a fresh machine needs only python3 and make.
PYTHON ?= python3
VENV ?= .venv
EXTRAS ?= dev
comma := ,
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(subst $(comma),_,$(EXTRAS))
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup setup-browser report demo test test-slow soak bench lint format ci clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	$(PY) -m ipykernel install --sys-prefix --name memlab --display-name "memlab" >/dev/null
	$(VENV)/bin/memlab warmup
	touch $@

# The regression report: the regression notebook on the shipped dataset, run with
# papermill in the memlab kernel and checked against baselines/regression.json.
# Output in out/report/ (summary.txt, index.html, executed notebooks and HTML).
report: setup
	$(VENV)/bin/memlab report

# Headless Chromium for the HTML report test (tests/report/test_html_browser.py,
# `make test-slow`); CI runs this before `make test-slow`. Debian: needs root.
setup-browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { $(SUDO) apt-get install -y chromium || \
	    { $(SUDO) apt-get update && $(SUDO) apt-get install -y chromium; }; }

demo: setup
	$(VENV)/bin/memlab demo

# Two workers (pytest-xdist), a test file per worker at a time: files share their
# fixtures (tests/conftest.py keeps the files that share the shipped dataset's replay
# on one worker and starts the longest first). TEST_WORKERS=0 runs in this process (a
# debugger, -x).
TEST_WORKERS ?= 2
PYTEST := $(PY) -m pytest -q $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

test: setup
	$(PYTEST)

test-slow: setup
	$(PYTEST) -m slow

# The slow tests with every campaign at its full size (MEMLAB_SOAK=1: the SIGKILL
# campaigns, the fuzz, the sweep's many-draws exactness, the random Dream traces), the
# sizes the docs quote; run before each release. `make test-slow` (CI) runs the same
# campaigns smaller: fewer kills and draws, the same kinds. Over half an hour on two cores.
soak: setup
	MEMLAB_SOAK=1 $(PYTEST) -m slow

# Every benchmark as one table (figure, memlab, anchor, ratio, goal, met): the
# table of docs/benchmarks.md. About 21 minutes; the load average is printed with it.
bench: setup
	$(PY) -m benchmarks

lint: setup
	$(VENV)/bin/ruff check memlab tests benchmarks
	$(VENV)/bin/ruff format --check memlab tests benchmarks
	$(VENV)/bin/mypy

format: setup
	$(VENV)/bin/ruff check --fix memlab tests benchmarks
	$(VENV)/bin/ruff format memlab tests benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
