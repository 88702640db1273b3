"""SIGKILL campaign: kill Dream at random points and check what survives.

``kill_campaign(workdir, kills, atomic=...)`` repeats: make a fresh workspace
whose ``MEMORY.md`` holds a few kilobytes of facts; start a child process that
adds three session logs and runs Dream (offline consolidator, ``/dream``) in a
loop; SIGKILL it after a random delay; then inspect the files.

The child journals every session it created (with its unique fact)
and every text it is about to write. Each session's fact updates one of three
labelled slots (``- slot-1: r7s1``), which the consolidator keeps at its newest
value, so ``MEMORY.md`` stays the same size however many runs a child completes
before the kill: the campaign measures the write, never c0's 16,000 caps on the
old memory and the answer (SPEC §7.3) nor the offline consolidator's budget,
which a child that grew the file on a fast machine would reach. After the kill:

* ``MEMORY.md`` is **damaged** when it is neither the initial text nor one of
  the texts the child meant to write (c0's in-place write can leave it empty
  or cut; the atomic write must never);
* a fact is **lost** when neither the current ``MEMORY.md`` (its slot at this
  or a newer value) nor a session log still on disk holds it.

Three modes: c0's in-place write (the default, so c0 stays measurable), the
atomic write (``--atomic``), and ``--cli``: the default ``memlab dream run
--yes`` through the CLI's own code (atomic write, stale-input check, backups),
which must lose nothing.

``python -m memlab.dream.kill_dream --kills 500 [--atomic | --cli]`` prints the rates.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memlab.config import DreamConfig
from memlab.dream.gates import Trigger
from memlab.dream.new_memory import Writer, write_atomic, write_in_place
from memlab.dream.offline import OfflineConsolidator
from memlab.dream.run import run_dream

INITIAL_FACTS = 140  # about 6 kB of initial memory, room to grow below the 16 kB caps
OLD = 3600.0  # session logs are back-dated so the 300 s grace does not keep them


MODES = ("in-place", "atomic", "cli")
MODE_LABELS = {
    "in-place": "in-place (c0)",
    "atomic": "atomic",
    "cli": "memlab dream run --yes (defaults)",
}
WS = "proj-1234abcd"
SLOTS = 3  # session logs per Dream run, each updating its own slot
_FACT = re.compile(r"r(\d+)s(\d+)")


@dataclass
class CampaignResult:
    mode: str
    kills: int = 0
    damaged: int = 0  # kills after which MEMORY.md was not a complete text
    damaged_kinds: dict[str, int] = field(default_factory=dict)  # "empty", "cut", "other"
    kills_losing_facts: int = 0
    facts_lost: int = 0  # facts in neither the current MEMORY.md nor a session log on disk
    sessions_lost: int = 0  # logs deleted although no completed write held their fact
    runs_completed: int = 0  # completed writes journaled by the children

    @property
    def damage_rate(self) -> float:
        return self.damaged / self.kills if self.kills else 0.0

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.damaged_kinds.items())) or "none"
        return (
            f"{self.mode}: {self.kills} kills, {self.runs_completed} completed runs; MEMORY.md "
            f"damaged after {self.damaged} kills ({100 * self.damage_rate:.2f}%; {kinds}); "
            f"{self.kills_losing_facts} kills lost facts ({self.facts_lost} facts); "
            f"{self.sessions_lost} session logs lost"
        )


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _append(journal: Path, line: str) -> None:
    # No fsync: SIGKILL loses nothing already handed to the kernel (power loss would).
    fd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def _initial_memory() -> str:
    facts = "\n".join(
        f"- init-{i:04d}: value {i} of the initial memory" for i in range(INITIAL_FACTS)
    )
    return f"# Memory\n\n## Facts\n\n{facts}\n"


def journaled(base: Writer, journal: Path) -> Writer:
    """``base`` that first records the text it is about to write (and then that it did)."""
    texts = journal.parent / "texts"

    def journaled_write(path: Path, text: str) -> None:
        digest = _digest(text)
        (texts / f"{digest}.md").write_text(text, encoding="utf-8")
        _append(journal, f"intend {digest}")
        base(path, text)
        _append(journal, f"wrote {digest}")

    return journaled_write


def child_loop(workspace: Path, journal: Path, mode: str) -> None:
    """``run_dream`` with c0's in-place write or the atomic one, until killed."""
    # stale_lock_secs 0: each run reclaims the lock; with c0's 3600 s our own live PID
    # would block every run after the first (SPEC §7.4).
    atomic = mode == "atomic"
    writer = journaled(write_atomic if atomic else write_in_place, journal)
    config = DreamConfig(atomic_write=atomic, stale_lock_secs=0.0)
    consolidator = OfflineConsolidator()

    def run() -> object:
        return run_dream(workspace, consolidator, now=time.time(), config=config,
                         trigger=Trigger.MANUAL, writer=writer)  # fmt: skip

    run_loop(workspace, journal, run)


def run_loop(workspace: Path, journal: Path, run: Callable[[], object]) -> None:
    """Runs until killed: three new session logs, then one Dream run, again and again."""
    sessions = workspace / "sessions"
    print("ready", flush=True)
    for n in range(1_000_000):
        for k in range(SLOTS):
            fact = f"r{n:07d}s{k}"  # zero-padded: stem order is run order
            path = sessions / f"2026-01-01-crash-{fact}.md"
            path.write_text(f"# Session\n\n## Facts\n\n- slot-{k}: {fact}\n")
            os.utime(path, (time.time() - OLD, time.time() - OLD))
            _append(journal, f"session {path.name} {fact}")
        run()


def fresh_workspace(workdir: Path, k: int) -> tuple[Path, Path, str]:
    case = workdir / f"kill-{k:05d}"
    workspace = case / "memory" / WS
    (workspace / "sessions").mkdir(parents=True)
    (case / "texts").mkdir()
    initial = _initial_memory()
    (workspace / "MEMORY.md").write_text(initial, encoding="utf-8")
    return workspace, case / "journal", initial


def _memory_damage(memory: str, initial: str, intended: set[str], texts: Path) -> str | None:
    """None if ``memory`` is a complete text, else "empty", "cut" or "other"."""
    if memory == initial or _digest(memory) in intended:
        return None
    if not memory:
        return "empty"
    candidates = [initial] + [(texts / f"{d}.md").read_text(encoding="utf-8") for d in intended]
    return "cut" if any(t.startswith(memory) for t in candidates) else "other"


def newest_in_slots(text: str) -> dict[int, int]:
    """Slot → the newest run number whose fact ``text`` holds there."""
    newest: dict[int, int] = {}
    for run, slot in (
        map(int, m.groups()) for m in re.finditer(r"- slot-\d+: r(\d+)s(\d+)$", text, re.M)
    ):
        newest[slot] = max(run, newest.get(slot, -1))
    return newest


def _held(fact: str, newest: dict[int, int]) -> bool:
    """Whether a text whose slots are ``newest`` holds ``fact`` (at that or a newer value)."""
    run, slot = map(int, _FACT.fullmatch(fact).groups())  # type: ignore[union-attr]
    return newest.get(slot, -1) >= run


def journal_records(journal: Path) -> list[str]:
    """The journal's complete lines. A SIGKILL can cut the child's last ``write`` at a
    page boundary (the kernel stops between pages when a fatal signal is pending), so a
    last line without its newline is a torn record: never completed, not counted."""
    if not journal.exists():
        return []
    text = journal.read_text(encoding="utf-8", errors="replace")
    lines = text.split("\n")
    return lines[:-1]  # after the last newline: "" or a torn record


def inspect_kill(workspace: Path, journal: Path, initial: str, result: CampaignResult) -> None:
    lines = journal_records(journal)
    texts = journal.parent / "texts"
    intended = {ln.split()[1] for ln in lines if ln.startswith("intend ")}
    wrote = [ln.split()[1] for ln in lines if ln.startswith("wrote ")]
    result.runs_completed += len(wrote)
    try:
        memory = (workspace / "MEMORY.md").read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        memory = ""
    damage = _memory_damage(memory, initial, intended, texts)
    if damage is not None:
        result.damaged += 1
        result.damaged_kinds[damage] = result.damaged_kinds.get(damage, 0) + 1
    written = newest_in_slots(
        "\n".join((texts / f"{d}.md").read_text(encoding="utf-8") for d in wrote)
    )
    held = newest_in_slots(memory)
    on_disk = {p.name for p in (workspace / "sessions").glob("*.md")}
    lost = sum(f"- init-{i:04d}:" not in memory for i in range(INITIAL_FACTS))
    for ln in lines:
        if ln.startswith("session "):
            _, name, fact = ln.split()
            if name not in on_disk:
                lost += not _held(fact, held)
                result.sessions_lost += not _held(fact, written)
    result.facts_lost += lost
    result.kills_losing_facts += lost > 0


def kill_campaign(
    workdir: str | Path,
    kills: int,
    *,
    atomic: bool = False,
    cli: bool = False,
    seed: int = 0,
    max_delay: float = 0.25,
) -> CampaignResult:
    """Kill ``kills`` Dream child processes at random points; return what was found.

    ``cli`` runs the default ``memlab dream run --yes``; else ``run_dream`` with c0's
    in-place write, or the atomic write with ``atomic``."""
    rng = random.Random(seed)
    workdir = Path(workdir)
    mode = "cli" if cli else "atomic" if atomic else "in-place"
    result = CampaignResult(MODE_LABELS[mode])
    for k in range(kills):
        workspace, journal, initial = fresh_workspace(workdir, k)
        # the CLI mode's child lives in memlab.cli (nothing outside the CLI imports it)
        module = "memlab.cli.kill_children" if cli else "memlab.dream.kill_dream"
        args = [sys.executable, "-m", module, "--child", str(workspace), str(journal), mode]
        child = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        if child.stdout is None or child.stdout.readline().strip() != "ready":
            child.kill()
            raise RuntimeError(f"crash child failed to start (exit code {child.wait()})")
        time.sleep(rng.uniform(0.0, max_delay))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        result.kills += 1
        inspect_kill(workspace, journal, initial, result)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memlab.dream.kill_dream", description=__doc__)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--atomic", action="store_true", help="use the atomic write (else c0's)")
    parser.add_argument(
        "--cli", action="store_true", help="run the default `memlab dream run --yes` (CLI code)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", help="where to build the workspaces (default: a temp dir)")
    parser.add_argument(
        "--child", nargs=3, metavar=("WS", "JOURNAL", "MODE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.child:
        child_loop(Path(args.child[0]), Path(args.child[1]), args.child[2])
        return 0
    if args.workdir is not None and not Path(args.workdir).is_dir():
        what = "is not a directory" if Path(args.workdir).exists() else "does not exist"
        print(
            f"{parser.prog}: error: --workdir {args.workdir} {what}; give an existing "
            "directory (or leave it out for a temporary one)",
            file=sys.stderr,
        )
        return 2
    import tempfile

    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        result = kill_campaign(tmp, args.kills, atomic=args.atomic, cli=args.cli, seed=args.seed)
        print(result.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
