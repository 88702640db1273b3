"""The README documents every command, and its first lines are the two set-up commands."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from memlab.cli import build_parser

README = Path(__file__).resolve().parents[1] / "README.md"


def commands(parser: argparse.ArgumentParser, prefix: str = "memlab") -> list[str]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.append(f"{prefix} {name}")
                out.extend(commands(sub, f"{prefix} {name}"))
    return out


def test_every_command_is_documented() -> None:
    text = README.read_text(encoding="utf-8")
    missing = []
    for cmd in commands(build_parser()):
        parent, _, leaf = cmd.rpartition(" ")
        # "memlab dataset validate|info|…" documents several subcommands at once
        grouped = re.search(re.escape(parent) + r" [\w|\\-]*\b" + re.escape(leaf) + r"\b", text)
        if cmd not in text and not grouped:
            missing.append(cmd)
    assert missing == []


def test_readme_opens_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```sh") + 1 : lines.index("```sh") + 3]
    assert block[0].startswith("make report") and block[1].startswith("make test")
    makefile = (README.parent / "Makefile").read_text()
    assert re.search(r"^report:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    ci = (README.parent / ".ci" / "run").read_text()
    assert "make test" in ci
