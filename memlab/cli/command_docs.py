"""The command reference, ``docs/commands.md``, generated from the commands' own help.

``python -m memlab.cli.command_docs > docs/commands.md`` writes it: a short preamble, the
table of commands (``memlab.cli.commands``, the one table of them) and the ``--help``
of every command and subcommand, in help order. The help is formatted at a fixed width
(``WIDTH`` columns, whatever the terminal), so the file is the same on every machine
with the same Python; ``tests/test_docs.py`` checks the checked-in file against it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from memlab.cli import build_parser
from memlab.cli.commands import COMMANDS

WIDTH = 100  # argparse wraps help at COLUMNS - 2
COMMAND = "python -m memlab.cli.command_docs > docs/commands.md"

PREAMBLE = f"""\
# Command reference

<!-- Generated from the commands' --help by `{COMMAND}`;
     tests/test_docs.py fails when it is stale. Edit the help, then regenerate. -->

Every command prints one clear line and exits with status 2 on bad input
(missing root, unreadable index, schema mismatch, unknown flag value — with a
"did you mean" where one is close). `memlab COMMAND --help` lists every option;
this page is that help, for every command and subcommand.

Configuration, the same way in every command that takes one: the profile
(`--profile`, else the file's `profile` key, else `grok-c0`), then the
`--config` file (YAML/JSON: the command's keys, or sections such as `search:` /
`dream:`), then the command's own flags, then `--set` (dotted paths such as
`mmr.lambda=0.5` or `source_weights.session=0.8`; values are YAML scalars) — the
last one wins. A `DATASET` is a folder or a shipped dataset's name
(`agent-memory`).

Embedder names: `hash` (offline hashed n-grams, numpy only), `minilm` (the real
model), `cache:INNER` (persistent vectors keyed by provider and text),
`faulty:MODE[:RATE]:INNER` (injected failures: `raise`, `timeout`,
`wrong-dim`, `nan`, `empty`).
"""


# where each command is explained beyond its help (pages of docs/)
PAGES = {
    "index": "[engine](engine.md), [guarantees](guarantees.md)",
    "search": "[engine](engine.md), [guarantees](guarantees.md)",
    "demo": "[engine](engine.md)",
    "eval": "[evaluation](evaluation.md), [protocols](protocols.md)",
    "compare": "[evaluation](evaluation.md), [protocols](protocols.md), [scale-out](scale-out.md)",
    "dataset": "[evaluation](evaluation.md), [judging](judging.md)",
    "pool": "[judging](judging.md)",
    "judge": "[judging](judging.md)",
    "sweep": "[decide](decide.md), [scale-out](scale-out.md)",
    "config": "[decide](decide.md)",
    "dream": "[guarantees](guarantees.md), [scale-out](scale-out.md)",
    "report": "[notebooks](notebooks.md), [report](report.md)",
    "lab": "[notebooks](notebooks.md)",
    "init": "[notebooks](notebooks.md)",
}


def subcommands(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser``'s subcommand parsers, depth first, in help order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases share a parser
                yield sub
                yield from subcommands(sub)


@contextmanager
def fixed_width(columns: int = WIDTH) -> Iterator[None]:
    """argparse's help width (and no colour) whatever the terminal says."""
    saved = {k: os.environ.get(k) for k in ("COLUMNS", "NO_COLOR")}
    os.environ["COLUMNS"], os.environ["NO_COLOR"] = str(columns), "1"
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def reference() -> str:
    """The text of ``docs/commands.md``."""
    parser = build_parser()
    out = [PREAMBLE, "| command | what it does | more |", "|---|---|---|"]
    out += [
        f"| [`memlab {name}`](#memlab-{name}) | {c.summary} | {PAGES.get(name, '')} |"
        for name, c in COMMANDS.items()
    ]
    with fixed_width():
        for sub in [parser, *subcommands(parser)]:
            out += ["", f"## {sub.prog}", "", "```text", sub.format_help().rstrip(), "```"]
    return "\n".join(out) + "\n"


def main() -> None:
    sys.stdout.write(reference())


if __name__ == "__main__":
    main()
