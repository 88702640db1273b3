"""The numbers docs/guarantees.md states are the code's constants.

The campaign figures are checked by the tests that compute them (``tests/store``,
``tests/search``, ``tests/cli``, ``tests/dream``); these are the fixed limits."""

from __future__ import annotations

from memlab.agents.reading import MAX_AGENT_FILE_BYTES
from memlab.cli import build_parser
from memlab.config import IndexConfig
from memlab.datafile import MAX_DATA_BYTES
from memlab.store.chunker import CONTEXT_MAX_BYTES
from tests.conftest import docs_say

MiB = 1024 * 1024


def test_the_size_caps() -> None:
    assert docs_say(
        "guarantees.md",
        "capped in size (memory files 10 MiB, agent files 1 MiB, input files such as "
        "`--config` 10 MiB)",
    )
    assert IndexConfig().max_file_bytes == 10 * MiB
    assert 1 * MiB == MAX_AGENT_FILE_BYTES and 10 * MiB == MAX_DATA_BYTES


def test_the_context_prefix_cap() -> None:
    assert docs_say(
        "guarantees.md", "the `[Context: …]` prefix of nested sections is capped at 1 KiB"
    )
    assert CONTEXT_MAX_BYTES == 1024


def test_the_backups_kept() -> None:
    assert docs_say("guarantees.md", "`<workspace>/.dream-backups/` (the newest 20 kept")
    parser = build_parser()
    dream = next(a for a in parser._subparsers._group_actions).choices["dream"]  # type: ignore[union-attr]
    run = next(a for a in dream._subparsers._group_actions).choices["run"]  # type: ignore[union-attr]
    assert run.get_default("keep_backups") == 20
