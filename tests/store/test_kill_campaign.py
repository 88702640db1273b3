"""SIGKILL campaign over ``memlab index`` / sync on a growing memory (issue 12).

After every kill: ``PRAGMA integrity_check`` is ok on the index as the kill left
it, a recovery ``memlab index`` succeeds, and the index equals the files on disk
(chunk ids and hashes, and the FTS index term by term).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memlab.store.kill_index import kill_campaign
from tests.conftest import campaign_size, docs_say

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


KILLS = 200


def test_sigkill_index_a_few_times(tmp_path: Path) -> None:
    result = kill_campaign(tmp_path, 4, seed=5)
    assert result.kills == 4 and result.problems == []


@pytest.mark.slow
def test_sigkill_campaign_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert docs_say(
        "guarantees.md", f"{KILLS} random SIGKILLs of `memlab index` on a growing memory"
    )
    assert docs_say("guarantees.md", "after every kill `PRAGMA integrity_check` was ok")
    kills = campaign_size(ci=40, soak=KILLS)
    result = kill_campaign(tmp_path, kills, seed=6)
    with capsys.disabled():
        print("\n" + result.summary())
    assert result.kills == kills and result.mid_index > kills // 2 and result.mid_sync > 0
    assert result.problems == []
    assert result.integrity_failures == result.recovery_failures == result.mismatches == 0
