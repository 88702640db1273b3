"""The children of the SIGKILL campaigns that run CLI commands (``memlab index``,
``memlab dream run --yes``) through the CLI's own code, in a loop, until killed.

They live here because nothing outside ``memlab.cli`` imports the CLI; the
campaigns themselves (``memlab.store.kill_index``, ``memlab.dream.kill_dream``) start them
as ``python -m memlab.cli.kill_children --index-child ROOT SEED`` or ``--child WS JOURNAL
cli`` and inspect what each kill left.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memlab.cli import report_error
from memlab.cli.args import MemlabParser


def command_runner(register: Callable[[Any], None], argv: list[str]) -> Callable[[], int]:
    """Run one command through its CLI code (parser, checks, command), output discarded;
    only the command's own module is loaded."""
    parser = MemlabParser(prog="memlab")
    register(parser.add_subparsers(dest="command"))

    def run() -> int:
        args = parser.parse_args(argv)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                return int(args.func(args) or 0)
        except Exception as exc:
            return report_error(exc)

    return run


def index_child(root: Path, seed: int) -> None:
    from memlab.cli.search import register
    from memlab.store.kill_index import WS, child_loop

    run = command_runner(register, ["index", str(root), "--workspace", WS])
    child_loop(root, seed, run)


def dream_child(workspace: Path, journal: Path) -> None:
    """``memlab dream run ROOT --workspace WS --yes --force``, its writer journaled (the
    CLI's default writer is the atomic one)."""
    from memlab.cli.dream import register
    from memlab.dream import new_memory as write
    from memlab.dream.kill_dream import journaled, run_loop

    write.write_atomic = journaled(write.write_atomic, journal)  # type: ignore[assignment]
    argv = ["dream", "run", str(workspace.parent), "--workspace", workspace.name, "--yes",
            "--force", "--set", "stale_lock_secs=0"]  # fmt: skip
    run_loop(workspace, journal, command_runner(register, argv))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memlab.cli.kill_children", description=__doc__)
    parser.add_argument("--index-child", nargs=2, metavar=("ROOT", "SEED"))
    parser.add_argument("--child", nargs=3, metavar=("WS", "JOURNAL", "MODE"))
    args = parser.parse_args(argv)
    if args.index_child:
        index_child(Path(args.index_child[0]), int(args.index_child[1]))
    elif args.child:
        dream_child(Path(args.child[0]), Path(args.child[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
