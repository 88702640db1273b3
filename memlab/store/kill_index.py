"""SIGKILL campaign over ``memlab index`` / sync on a growing memory.

``kill_campaign(workdir, kills)`` keeps one memory root and one index for the
whole campaign. Each round starts a child that loops, until killed: change the
memory (a new session log with a unique fact, an append to an older log, now
and then a rewrite of ``MEMORY.md`` or a deleted log), then run ``memlab index``
on it through the CLI's own code (the child lives in ``memlab.cli.kill_children``). The
child is SIGKILLed after a random delay — inside SQLite writes, between files, or
in the middle of writing a memory file.
After each kill the campaign checks:

* ``PRAGMA integrity_check`` of the index as the kill left it is ``ok``;
* a recovery index build succeeds — what ``memlab index`` runs: open, scan, sync,
  taking at once the reindex claim the dead child left (``memlab index`` reclaims a
  claim whose holder is dead on this machine);
* the index then equals the files on disk (``verify.index_problems``: chunk ids
  and hashes, and the FTS index term by term).

``python -m memlab.store.kill_index --kills 200`` prints the counts.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memlab.store.verify import index_problems

WS = "proj-1234abcd"
INDEX = Path(WS) / "index.sqlite"


@dataclass
class IndexCampaign:
    kills: int = 0
    mid_index: int = 0  # kills while the child was inside `memlab index`
    mid_sync: int = 0  # … and held the reindex claim (inside the sync itself)
    integrity_failures: int = 0
    recovery_failures: int = 0
    mismatches: int = 0  # kills after which the recovered index differed from the disk
    files: int = 0  # memory files at the end
    chunks: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"index: {self.kills} SIGKILLs ({self.mid_index} inside `memlab index`, "
            f"{self.mid_sync} of them inside the sync) over a "
            f"memory grown to {self.files} files / {self.chunks} chunks; integrity_check not "
            f"ok {self.integrity_failures}×, recovery failed {self.recovery_failures}×, index "
            f"≠ files on disk {self.mismatches}×"
        )


def mutate(root: Path, rng: random.Random, n: int) -> None:
    """New logs with unique facts, appends to older ones, sometimes a new MEMORY.md or a
    deleted log: the memory grows by a few files per round."""
    sessions = root / WS / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    logs = sorted(sessions.glob("*.md"))
    for k in range(3):
        words = "detail " * rng.randint(1, 600)
        (sessions / f"2026-01-01-run-{os.getpid()}-{n:05d}-{k}.md").write_text(
            f"# Session {n}\n\n## Facts\n\n- fact-{os.getpid()}-{n}-{k}: {words}\n"
        )
    for log in rng.sample(logs, min(3, len(logs))):
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(f"\n\n## Later\n\n- appended-{os.getpid()}-{n}\n")
    if rng.random() < 0.2:
        body = "\n\n".join(f"## Topic {i}\n\n- rule {i}: {rng.random()}" for i in range(30))
        (root / WS / "MEMORY.md").write_text(f"# Project\n\n{body}\n")
    if len(logs) > 30 and rng.random() < 0.5:
        rng.choice(logs).unlink(missing_ok=True)


def _journal(path: Path, mark: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, mark)
    finally:
        os.close(fd)


def child_loop(root: Path, seed: int, run_index: Callable[[], object]) -> None:
    """Until killed: change the memory, run ``memlab index`` (``run_index``), again."""
    rng = random.Random(seed)
    journal = root.parent / "journal"
    run_index()  # warm up: imports, schema
    print("ready", flush=True)
    for n in range(1_000_000):
        mutate(root, rng, n)
        _journal(journal, b"s")
        run_index()
        _journal(journal, b"e")


def recover(root: Path) -> bool:
    """What ``memlab index`` does after a crash: open, scan, sync — taking the claim a dead
    process left (``MemoryStore.build(reclaim_dead=True)``, as ``cmd_index`` calls it)."""
    from memlab.errors import MemlabError
    from memlab.store.store import MemoryStore

    try:
        with MemoryStore.open(root, WS) as store:
            store.build(reclaim_dead=True)
    except MemlabError:
        return False
    return True


def _integrity(index: Path) -> bool:
    from memlab.store.connection import open_connection

    conn = open_connection(index, want_vec=False)
    try:
        return [r[0] for r in conn.conn.execute("PRAGMA integrity_check")] == ["ok"]
    finally:
        conn.close()


def _fresh_root(workdir: Path) -> Path:
    root = workdir / "memory"
    (root / WS / "sessions").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Preferences\n\n- Always run pytest with -q.\n")
    (root / WS / "MEMORY.md").write_text("# Project\n\n- The API listens on port 8080.\n")
    return root


def kill_campaign(
    workdir: str | Path, kills: int, *, seed: int = 0, max_delay: float = 0.4
) -> IndexCampaign:
    rng = random.Random(seed)
    root = _fresh_root(Path(workdir))
    result = IndexCampaign()
    if not recover(root):
        raise RuntimeError("the first index build failed")
    for k in range(kills):
        # the child runs `memlab index` through the CLI's code: it lives in memlab.cli
        cmd = [
            sys.executable,
            "-m",
            "memlab.cli.kill_children",
            "--index-child",
            str(root),
            str(seed + k),
        ]
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        if child.stdout is None or child.stdout.readline().strip() != "ready":
            child.kill()
            raise RuntimeError(f"crash child failed to start (exit code {child.wait()})")
        time.sleep(rng.uniform(0.0, max_delay))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        result.kills += 1
        _check_after_kill(root, result)
    result.files = sum(1 for _ in root.rglob("*.md"))
    from memlab.store.connection import open_connection

    conn = open_connection(root / INDEX, want_vec=False)
    result.chunks = int(conn.conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])
    conn.close()
    return result


def _check_after_kill(root: Path, result: IndexCampaign) -> None:
    index = root / INDEX
    journal = root.parent / "journal"
    marks = journal.read_bytes() if journal.exists() else b""
    journal.unlink(missing_ok=True)
    result.mid_index += marks.endswith(b"s")
    result.mid_sync += bool(_claim_holder(index))
    if not _integrity(index):
        result.integrity_failures += 1
        result.problems.append(f"kill {result.kills}: integrity_check failed")
    if not recover(root):
        result.recovery_failures += 1
        result.problems.append(f"kill {result.kills}: recovery `memlab index` failed")
        return
    problems = index_problems(root, WS, index)
    if problems:
        result.mismatches += 1
        result.problems.append(f"kill {result.kills}: {problems[:3]}")


def _claim_holder(index: Path) -> str:
    """The reindex claim as the kill left it ('' when no sync was running)."""
    from memlab.store.connection import open_connection
    from memlab.store.schema import get_meta

    conn = open_connection(index, want_vec=False)
    try:
        return get_meta(conn.conn, "reindex_claim") or ""
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memlab.store.kill_index", description=__doc__)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", help="where to build the memory (default: a temp dir)")
    args = parser.parse_args(argv)
    import tempfile

    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        result = kill_campaign(tmp, args.kills, seed=args.seed)
    print(result.summary())
    for problem in result.problems[:10]:
        print(f"  {problem}")
    return 0 if not result.problems else 1


if __name__ == "__main__":
    sys.exit(main())
