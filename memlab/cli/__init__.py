"""The ``memlab`` command line: thin commands over the library.

Each command group lives in its own module with a ``register(subparsers)``
function; ``COMMAND_MODULES`` lists them in help order. Any ``MemlabError`` is
printed as one line on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from memlab.errors import MemlabError

COMMAND_MODULES = (
    "memlab.cli.engine",
    "memlab.cli.evaluate",
    "memlab.cli.agents",
    "memlab.cli.dataset",
    "memlab.cli.judge",
    "memlab.cli.sweep",
    "memlab.cli.dream",
    "memlab.cli.report",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memlab",
        description="Evaluation workbench for the memory systems of AI coding agents.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show debug logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="memlab: %(levelname)s: %(message)s",
    )
    try:
        code = args.func(args)
    except MemlabError as exc:
        print(f"memlab: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("memlab: interrupted", file=sys.stderr)
        return 130
    return int(code or 0)
