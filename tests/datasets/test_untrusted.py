"""A dataset is untrusted input: every dataset command refuses a FIFO, a device, a link
out of the folder and a ``memory/`` that leads elsewhere — exit 2, one line — and
reads nothing outside (issue 27, item 1).

Each command runs in its own process with a timeout, so a regression that blocks on
a FIFO fails instead of hanging the suite. "Reads nothing outside" is checked two
ways: what lies outside includes a FIFO (any ``open`` of it for reading blocks, and
the timeout catches it) and a secret no output or written file may contain.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from memlab.datasets import compute_digest, validate_dataset
from memlab.datasets.scan import check_dataset_files
from memlab.datasets.untrusted import DatasetFileRefused
from tests.eval.conftest import WS, write_eval_dataset

SECRET = "the password is hunter2"
SESSION = f"memory/{WS}/sessions/2026-03-31-zzz-00000099.md"


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_eval_dataset(tmp_path_factory.mktemp("untrusted") / "clean")


def _outside(base: Path) -> Path:
    """A folder outside the dataset: a secret memory, and a FIFO that blocks any reader."""
    out = base / "outside"
    (out / WS / "sessions").mkdir(parents=True, exist_ok=True)
    (out / "MEMORY.md").write_text(f"# Secret\n\n{SECRET}\n")
    (out / "secret.txt").write_text(f'{{"query_id": "q", "text": "{SECRET}"}}\n')
    if not (out / WS / "MEMORY.md").exists():
        os.mkfifo(out / WS / "MEMORY.md")
    return out


def _fifo_in_memory(ds: Path, out: Path) -> str:
    os.mkfifo(ds / SESSION)
    return "2026-03-31-zzz-00000099.md"


def _device_in_memory(ds: Path, out: Path) -> str:
    try:  # a character device inside the dataset (/dev/zero's numbers); needs CAP_MKNOD
        os.mknod(ds / SESSION, stat.S_IFCHR | 0o600, os.makedev(1, 5))
    except PermissionError:
        pytest.skip("creating a character device needs CAP_MKNOD here")
    return "2026-03-31-zzz-00000099.md"


def _memory_links_out(ds: Path, out: Path) -> str:
    shutil.rmtree(ds / "memory")
    os.symlink(out, ds / "memory")
    return "memory"


def _queries_link_out(ds: Path, out: Path) -> str:
    (ds / "queries.jsonl").unlink()
    os.symlink(out / "secret.txt", ds / "queries.jsonl")
    return "queries.jsonl"


def _queries_is_dev_zero(ds: Path, out: Path) -> str:
    (ds / "queries.jsonl").unlink()
    os.symlink("/dev/zero", ds / "queries.jsonl")
    return "queries.jsonl"


def _qrels_is_fifo(ds: Path, out: Path) -> str:
    (ds / "qrels.tsv").unlink()
    os.mkfifo(ds / "qrels.tsv")
    return "qrels.tsv"


def _manifest_is_fifo(ds: Path, out: Path) -> str:
    (ds / "manifest.json").unlink()
    os.mkfifo(ds / "manifest.json")
    return "manifest.json"


HOSTILE = {
    "manifest-is-fifo": _manifest_is_fifo,
    "fifo-in-memory": _fifo_in_memory,
    "device-in-memory": _device_in_memory,
    "memory-links-out": _memory_links_out,
    "queries-links-out": _queries_link_out,
    "queries-is-dev-zero": _queries_is_dev_zero,
    "qrels-is-fifo": _qrels_is_fifo,
}

GRID = "tokenizer: [unicode61]\n"
COMMANDS = {
    "validate": ["dataset", "validate", "{ds}"],
    "info": ["dataset", "info", "{ds}"],
    "digest": ["dataset", "digest", "{ds}"],
    "eval": ["eval", "{ds}", "--quiet", "--work", "{work}"],
    "compare": ["compare", "{ds}", "--quiet", "--work", "{work}"],
    "sweep": ["sweep", "{ds}", "--grid", "{grid}", "--out", "{base}/sweep", "--work", "{work}"],
    "pool": ["pool", "{ds}", "--work", "{work}"],
    "judge": ["judge", "{ds}", "--judge", "me", "--work", "{work}"],
    "report": ["report", "--notebooks", "compare", "--datasets", "{ds}", "--out", "{base}/r"],
}


def hostile_copy(clean: Path, base: Path, case: str) -> tuple[Path, str]:
    ds = base / "ds"
    shutil.copytree(clean, ds, symlinks=True)
    why = HOSTILE[case](ds, _outside(base))  # the file the error line must name
    return ds, why


def written_text(base: Path) -> str:
    """Everything memlab wrote under ``base`` (regular files, links not followed)."""
    texts = []
    for path in base.rglob("*"):
        if path.is_file() and not path.is_symlink() and "outside" not in path.parts:
            texts.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(texts)


def run_all(argvs: dict[str, list[str]], env: dict[str, str]) -> dict[str, tuple[int, str, str]]:
    """Every command in its own process, side by side; a process still running after 60 s
    is killed and reported as blocked (exit -9)."""
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "memlab", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        for name, argv in argvs.items()
    }
    out = {}
    for name, proc in procs.items():
        try:
            stdout, stderr = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, stderr = proc.communicate()
            stderr = "blocked (killed after 60 s)"
        out[name] = (proc.returncode, stdout, stderr)
    return out


def check_refusals(clean: Path, base: Path, case: str) -> None:
    ds, why = hostile_copy(clean, base, case)
    (base / "grid.yaml").write_text(GRID)
    env = {**os.environ, "MEMLAB_CACHE_DIR": str(base / "cache")}
    values = {"ds": ds, "work": base / "work", "grid": base / "grid.yaml", "base": base}
    argvs = {name: [a.format(**values) for a in argv] for name, argv in COMMANDS.items()}
    failures = []
    for name, (code, stdout, stderr) in run_all(argvs, env).items():
        lines = stderr.strip().splitlines()
        ok = (
            code == 2
            and len(lines) == 1
            and lines[0].startswith("memlab: error: ")
            and why in lines[0]
            and SECRET not in stdout + stderr
        )
        if not ok:
            failures.append(f"{name}: exit {code}: {stderr.strip()[-300:]}")
    assert failures == []
    assert SECRET not in written_text(base)


FAST = ("fifo-in-memory",)  # the rest in the slow suite (each case takes ~20 s)


@pytest.mark.parametrize("case", FAST)
def test_every_dataset_command_refuses_in_one_line(case: str, clean: Path, tmp_path: Path) -> None:
    check_refusals(clean, tmp_path, case)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(set(HOSTILE) - set(FAST)))
def test_every_dataset_command_refuses_the_other_cases(
    case: str, clean: Path, tmp_path: Path
) -> None:
    check_refusals(clean, tmp_path, case)


def raised_within_a_minute(check: Callable[[Path], object], ds: Path) -> BaseException | None:
    """What ``check(ds)`` raised, run in a thread: a call that blocks fails the test."""
    raised: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            check(ds)
        except BaseException as exc:
            raised.append(exc)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(60), f"{getattr(check, '__name__', check)} blocked"
    return raised[0] if raised else None


REASONS = {
    "manifest-is-fifo": "a FIFO (named pipe), not a regular file; not read",
    "fifo-in-memory": "a FIFO (named pipe), not a regular file; not read",
    "memory-links-out": "outside",
    "queries-links-out": "outside",
    "queries-is-dev-zero": "leads to /dev/zero, outside",
    "qrels-is-fifo": "a FIFO (named pipe), not a regular file; not read",
}


@pytest.mark.parametrize("case", sorted(REASONS))
def test_the_library_refuses_in_one_line_naming_the_file_and_why(
    case: str, clean: Path, tmp_path: Path
) -> None:
    """In a thread the test waits for at most 60 s: a regression that blocks fails."""
    ds, name = hostile_copy(clean, tmp_path, case)
    for check in (validate_dataset, compute_digest, check_dataset_files):
        raised = raised_within_a_minute(check, ds)
        assert isinstance(raised, DatasetFileRefused), raised
        message = str(raised)
        assert "\n" not in message and name in message and REASONS[case] in message


def test_links_inside_the_dataset_still_work(clean: Path, tmp_path: Path) -> None:
    """Containment is the dataset folder, not "no links": a table linked to a file
    inside the folder is read, and the folder itself may be reached through a link."""
    ds = tmp_path / "ds"
    shutil.copytree(clean, ds, symlinks=True)
    os.replace(ds / "queries.jsonl", ds / "queries.real.jsonl")
    os.symlink("queries.real.jsonl", ds / "queries.jsonl")
    os.symlink(ds, tmp_path / "alias")
    report = validate_dataset(tmp_path / "alias")
    assert report.ok and report.stats["queries"] == 5, report.format()
