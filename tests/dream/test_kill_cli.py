"""SIGKILL campaign on the default ``memlab dream run --yes`` (issue 12, item 2).

c0's in-place write leaves MEMORY.md empty or cut in a share of kills (the crash
study keeps c0 as its default, ``tests/dream/test_faults.py``); the default CLI
run — atomic write, stale-input check, backups — must never damage MEMORY.md
and never lose a fact, whatever instant the process dies at.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memlab.dream.kill_dream import kill_campaign
from tests.conftest import campaign_size, docs_say

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def test_sigkill_default_dream_run_loses_nothing(tmp_path: Path) -> None:
    result = kill_campaign(tmp_path, 5, cli=True, seed=11)
    assert result.kills == 5
    assert result.damaged == 0 and result.facts_lost == 0 and result.sessions_lost == 0


@pytest.mark.slow
def test_sigkill_campaign_default_dream_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert docs_say("guarantees.md", "200 random SIGKILLs of the default `memlab dream run --yes`")
    kills = campaign_size(ci=60, soak=200)
    result = kill_campaign(tmp_path, kills, cli=True, seed=12)
    with capsys.disabled():
        print("\n" + result.summary())
    assert result.kills == kills and result.runs_completed > 0
    assert result.damaged == 0 and result.facts_lost == 0 and result.sessions_lost == 0
