"""The shipped agent-memory dataset replayed on its timeline (the real engine, Dream included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.config import SearchConfig
from memlab.eval.compare.reach import reachability
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset

SHIPPED = Path(__file__).resolve().parents[2] / "datasets" / "agent-memory"
EVERGREEN = ("preference", "evergreen-crowded")


@pytest.mark.slow
def test_most_answers_are_reachable_under_c0_with_dream_on_the_timeline(tmp_path: Path) -> None:
    """At least 60 % of judged queries can pass c0's decay and min_score at their own time,
    with Dream run at every session end as c0 would (its gates, the offline consolidator)."""
    shares = {}
    for dream in (True, False):
        prepared = prepare_dataset(
            SHIPPED, PrepareOptions(dream=dream, work_dir=tmp_path / str(dream))
        )
        table = reachability(prepared.timeline(vectors=False), SearchConfig())
        shares[dream] = table.reachable.mean()
        evergreen = table[table.category.isin(EVERGREEN)]
        # MEMORY.md answers never decay: those still in the memory at their time pass
        # (with Dream on, the bounded consolidator evicts some of the oldest: gone)
        assert evergreen[evergreen.chunk_id.notna()].reachable.mean() >= 0.9
        if not dream:
            assert prepared.judged().unresolved == []  # without Dream every answer exists
    assert shares[True] >= 0.6
    assert shares[False] > shares[True]  # Dream deletes logs and caps MEMORY.md: answers go
