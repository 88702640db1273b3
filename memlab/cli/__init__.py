"""The ``memlab`` command line: thin commands over the library.

Each command group lives in its own module with a ``register(subparsers)``
function; ``COMMAND_MODULES`` lists them in help order. Every parser is a
``memlab.cli.args.MemlabParser`` (values checked, one-line errors). Bad input
never ends in a traceback: a ``MemlabError`` — or an ``OSError``, a
``UnicodeError``, an input nested too deeply, memory exhausted — is printed as
one ``memlab: error:`` line on stderr with exit code 2. Anything else is a bug:
one line asking for ``-v`` (which shows the traceback), exit code 70.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from memlab import plugins, progress
from memlab.cli.args import MemlabParser
from memlab.cli.commands import COMMANDS
from memlab.errors import ConfigError, MemlabError
from memlab.retrieval import degraded

EXIT_BAD_INPUT = 2
EXIT_BUG = 70  # EX_SOFTWARE

COMMAND_MODULES = tuple(dict.fromkeys(c.module for c in COMMANDS.values()))


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or — given a command line — of the command it names
    only (that module's imports are all the command pays for). A command line naming no
    known command (``memlab --help``, a typo) gets the commands' summaries from
    ``memlab.cli.commands`` alone, importing no command module."""
    parser = MemlabParser(
        prog="memlab",
        description="Evaluation workbench for the memory systems of AI coding agents.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show debug logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    if argv is None:
        for module in COMMAND_MODULES:
            importlib.import_module(module).register(sub)
    elif (named := COMMANDS.get(named_command(argv))) is not None:
        importlib.import_module(named.module).register(sub)
    else:
        for name, command in COMMANDS.items():
            sub.add_parser(name, help=command.summary)
    return parser


def named_command(argv: Sequence[str]) -> str:
    """The command a command line names ("" when none comes before a help option)."""
    for arg in argv:
        if arg in ("-h", "--help"):
            return ""
        if not arg.startswith("-"):
            return arg
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if os.environ.get(plugins.ENV):  # before the options: they list what plugins add
        try:
            plugins.load()
        except ConfigError as exc:
            print(f"memlab: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
    parser = build_parser(argv)
    try:
        args = parse(parser, argv)
    except SystemExit as exc:  # --help (0) or a one-line parse error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="memlab: %(levelname)s: %(message)s",
    )
    try:
        with degraded.aggregated(), progress.reporting(enabled=wants_progress(args)):
            code = args.func(args)
    except KeyboardInterrupt:
        print("memlab: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        return report_error(exc, verbose=args.verbose)
    return int(code or 0)


def wants_progress(args: argparse.Namespace) -> bool:
    """Progress on stderr (``memlab.progress``) when stderr is a terminal (or a caller,
    e.g. a test, already records it), unless the command line says ``--quiet`` (or, for
    ``memlab report``, runs in CI: ``$CI`` set). A log or a pipe gets only the command's
    own lines, as before: bad input stays one ``memlab: error:`` line."""
    if getattr(args, "quiet", False):
        return False
    if args.command == "report" and in_ci():
        return False
    return progress.active() or sys.stderr.isatty()


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments; a command that passes what it does not know on (``pass_through``:
    ``memlab lab`` to JupyterLab) gets those in ``args.extra``, any other fails on them."""
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "pass_through", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    return args


def error_line(exc: BaseException) -> tuple[str, int]:
    """The one line memlab prints for ``exc``, and the exit code."""
    if isinstance(exc, MemlabError):
        return f"{exc}", EXIT_BAD_INPUT
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply to read; flatten it", EXIT_BAD_INPUT
    if isinstance(exc, MemoryError):
        return "not enough memory for this input; make it smaller", EXIT_BAD_INPUT
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}; check the path and its permissions", EXIT_BAD_INPUT
    if isinstance(exc, UnicodeError):
        return f"{exc}; memlab reads and writes UTF-8", EXIT_BAD_INPUT
    return (
        f"unexpected {type(exc).__name__}: {exc} (a memlab bug; rerun with -v for the traceback)",
        EXIT_BUG,
    )


def report_error(exc: BaseException, *, verbose: bool = False) -> int:
    line, code = error_line(exc)
    if verbose:
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    message = " ".join(line.split())  # one line, whatever the message held
    print(f"memlab: error: {message}", file=sys.stderr)
    return code
