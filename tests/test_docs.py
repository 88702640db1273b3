"""The docs document every command, the command reference is the commands' own help,
the README links every page of docs/, and its first lines are the two set-up commands."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pytest

from memlab.cli import build_parser
from memlab.cli.command_docs import COMMAND, reference

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
REFERENCE = DOCS / "commands.md"
# argparse's help layout changes between Python versions (3.13 writes "-o, --out DIR"
# where 3.11 writes "-o DIR, --out DIR"); the checked-in reference is written by this one
REFERENCE_PYTHON = (3, 11)


def commands(parser: argparse.ArgumentParser, prefix: str = "memlab") -> list[str]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.append(f"{prefix} {name}")
                out.extend(commands(sub, f"{prefix} {name}"))
    return out


def test_every_command_is_documented() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    missing = []
    for cmd in commands(build_parser()):
        if f"\n## {cmd}\n" not in text or f"usage: {cmd} " not in text:
            missing.append(cmd)
    assert missing == []


@pytest.mark.skipif(
    sys.version_info[:2] != REFERENCE_PYTHON,
    reason=f"docs/commands.md holds Python {REFERENCE_PYTHON}'s argparse layout",
)
def test_the_command_reference_is_the_commands_help() -> None:
    stale = REFERENCE.read_text(encoding="utf-8") != reference()
    assert not stale, f"docs/commands.md is stale: regenerate it with `{COMMAND}`"


def test_the_reference_does_not_depend_on_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    narrow = reference()
    monkeypatch.setenv("COLUMNS", "200")
    assert reference() == narrow


def test_the_readme_links_every_page_of_the_docs() -> None:
    text = README.read_text(encoding="utf-8")
    pages = sorted(p.name for p in DOCS.glob("*.md"))
    assert [p for p in pages if f"](docs/{p})" not in text] == []
    assert len(text.splitlines()) <= 200


def test_the_docs_links_lead_to_files() -> None:
    broken = []
    for page in [README, *sorted(DOCS.glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", page.read_text("utf-8")):
            if not (page.parent / target).exists():
                broken.append(f"{page.name}: {target}")
    assert broken == []


def test_readme_opens_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```sh") + 1 : lines.index("```sh") + 3]
    assert block[0].startswith("make report") and block[1].startswith("make test")
    makefile = (README.parent / "Makefile").read_text()
    assert re.search(r"^report:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    ci = (README.parent / ".ci" / "run").read_text()
    assert "make test" in ci
