"""From a built wheel to an answer, outside the checkout (slow).

The wheel is built from a copy of the sources (the checkout stays clean) and
installed into a fresh virtualenv with ``pip install --no-index``. Its
dependencies are this environment's, offered read-only: a folder of links to
every installed distribution except memlab itself, named in a ``.pth`` file of
the fresh virtualenv (the links' own ``.pth`` files are not run, so this
environment's editable memlab never shows), and their Jupyter data (nbconvert's
templates; never a kernel) on ``JUPYTER_PATH``. Every command runs in a folder
outside the checkout, without ``PYTHONPATH`` or ``MEMLAB_*`` settings, with its
own Jupyter data folder: the notebooks, dataset, vectors and baseline must come
from the wheel, and the ``memlab`` kernel is installed on first use.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from memlab.datasets.locate import repo_root

pytestmark = pytest.mark.slow

SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
FOLDERS = ("memlab", "notebooks", "datasets", "baselines")
NOT_SOURCES = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")


def build_wheel(dest: Path) -> Path:
    """The wheel of a copy of this checkout's sources."""
    src = dest / "src"
    src.mkdir(parents=True)
    root = repo_root()
    for name in SOURCES:
        shutil.copy2(root / name, src / name)
    for name in FOLDERS:
        shutil.copytree(root / name, src / name, ignore=NOT_SOURCES)
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*pip, "-w", str(dest / "dist"), str(src)], check=True, timeout=600)
    (wheel,) = (dest / "dist").glob("memlab-*.whl")
    return wheel


def shared_dependencies(dest: Path) -> tuple[Path, Path]:
    """Folders of links to this environment's distributions (memlab's left out) and to
    its Jupyter data (kernels left out)."""
    (packages,) = (Path(p) for p in site.getsitepackages() if Path(p).name == "site-packages")
    dest.mkdir()
    for entry in packages.iterdir():
        name = entry.name
        if name.startswith(("__editable__", "memlab-", "memlab.", "__pycache__")):
            continue
        (dest / name).symlink_to(entry)
    data = dest.parent / "deps-jupyter"
    data.mkdir()
    shared = Path(sys.prefix) / "share" / "jupyter"
    for entry in shared.iterdir() if shared.is_dir() else []:
        if entry.name != "kernels":
            (data / entry.name).symlink_to(entry)
    return dest, data


@dataclass
class Fresh:
    venv: Path
    wheel: Path
    home: Path  # where commands run: outside the checkout
    jupyter_data: Path  # the shared dependencies' Jupyter data

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k != "PYTHONPATH" and not (k.startswith("MEMLAB_") or k.startswith("JUPYTER"))
        }
        env["MEMLAB_CACHE_DIR"] = str(self.home / "cache")
        env["JUPYTER_DATA_DIR"] = str(self.home / "jupyter")
        env["JUPYTER_PATH"] = str(self.jupyter_data)
        env["VIRTUAL_ENV"] = str(self.venv)
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        return env

    def run(self, *args: str, timeout: float = 1200) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.venv / "bin" / "memlab"), *args],
            cwd=self.home,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Fresh:
    base = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(base / "build")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    (purelib,) = (venv / "lib").glob("python*/site-packages")
    deps, data = shared_dependencies(base / "deps")
    (purelib / "shared-dependencies.pth").write_text(f"{deps}\n")
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--no-index", "-q"]
    subprocess.run([*pip, str(wheel)], check=True, timeout=600)
    home = base / "elsewhere"
    home.mkdir()
    return Fresh(venv, wheel, home, data)


def test_the_wheel_carries_what_the_main_job_needs(fresh: Fresh) -> None:
    names = set(zipfile.ZipFile(fresh.wheel).namelist())
    shipped = "memlab/shipped/"
    for notebook in (repo_root() / "notebooks").glob("*.ipynb"):
        assert f"{shipped}notebooks/{notebook.name}" in names
    assert f"{shipped}baselines/regression.json" in names
    assert {f"memlab/data/grids/{n}.yaml" for n in ("decide", "broad", "index", "random")} <= names
    dataset = f"{shipped}datasets/agent-memory/"
    assert {f"{dataset}qrels.tsv", f"{dataset}manifest.json"} <= names
    assert any(n.startswith(f"{dataset}vectors/") and n.endswith(".sqlite") for n in names)
    where = subprocess.run(
        [str(fresh.venv / "bin" / "python"), "-c", "import memlab; print(memlab.__file__)"],
        cwd=fresh.home,
        env=fresh.env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(fresh.venv)), where


def test_report_runs_from_the_wheel_and_installs_the_kernel(fresh: Fresh) -> None:
    listed = fresh.run("report", "--list")
    assert listed.returncode == 0, listed.stderr
    assert "regression  (" in listed.stdout and str(fresh.venv) in listed.stdout
    done = fresh.run("report", "--out", "report")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "installed the Jupyter kernel 'memlab'" in done.stderr  # progress goes there
    assert "without encryption" not in done.stderr  # the kernel's start-up warning is quiet
    assert (fresh.venv / "share" / "jupyter" / "kernels" / "memlab" / "kernel.json").is_file()
    summary = (fresh.home / "report" / "summary.txt").read_text()
    assert "regression/agent-memory against the baseline" in summary
    assert "[FAIL]" not in summary and summary.rstrip().splitlines()[-1].startswith("result: PASS")


def test_compare_on_the_shipped_dataset_uses_its_vectors(fresh: Fresh) -> None:
    done = fresh.run("compare", "agent-memory", "--runs", "fts,hybrid", "--out", "cmp")
    assert done.returncode == 0, done.stdout + done.stderr
    # no warning that the vectors are missing (the tables name the fts run "c0 FTS-only")
    assert "FTS-only" not in done.stderr, done.stderr
    manifest = json.loads((fresh.home / "cmp" / "manifest.json").read_text())
    assert manifest["embedder"]["id"].startswith("all-MiniLM-L6-v2"), manifest["embedder"]
    assert (fresh.home / "cmp" / "aggregated.csv").is_file()


def test_init_lays_out_a_folder_of_the_users(fresh: Fresh) -> None:
    done = fresh.run("init", "work")
    assert done.returncode == 0, done.stderr
    work = fresh.home / "work"
    assert (work / "notebooks" / "regression.ipynb").is_file()
    assert (work / "grids" / "decide.yaml").is_file()
    assert any((work / "datasets" / "agent-memory" / "vectors").glob("*.sqlite"))


def test_demo_runs_and_leaves_nothing_behind(fresh: Fresh) -> None:
    done = fresh.run("demo")
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("memlab demo — memory at ") and "removed when the demo ends" in first
    memory = Path(first.removeprefix("memlab demo — memory at ").split(" (removed")[0])
    assert not memory.exists()
