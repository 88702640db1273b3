"""What the tour notebook's text says about the engine, computed on the demo memory.

Each test quotes the tour (``says``), so the text and the test change together.
Dataset-level findings (the evergreen supplement on agent-memory) are at the end.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import memlab.workbench as wb
from memlab.config import profile
from memlab.retrieval.strategies import candidate_limit
from memlab.timefmt import DAY
from memlab.workbench.findings import age_limit
from memlab.workbench.tour import Demo

TOUR = Path(__file__).resolve().parents[2] / "notebooks" / "tour.ipynb"
TEXT = " ".join(
    " ".join("".join(c["source"]).split())
    for c in json.loads(TOUR.read_text(encoding="utf-8"))["cells"]
    if c["cell_type"] == "markdown"
)


def says(text: str) -> None:
    assert " ".join(text.split()) in TEXT, f"the tour no longer says: {text!r}"


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Demo]:
    d = wb.open_demo(str(tmp_path / "tour"), watch=False)
    yield d
    d.close()


def test_chunks_of_the_demo(demo: Demo) -> None:
    says("Each demo file is small, so each is one chunk.")
    says("is **content-free** and is never returned (the empty session of 10 March)")
    files = wb.memory_files(demo)
    assert set(files["chunks"]) == {1}
    chunks = wb.chunk_table(demo)
    assert (chunks["bytes"] <= profile().index.chunking.max_bytes).all()
    assert [c.split("/")[-1] for c in chunks[chunks["content-free"]]["chunk"]] == [
        "2026-03-10-empty-f6a7b8c9.md:0"
    ]


def test_keywords_of_the_traced_query() -> None:
    says('stop words ("which", "does", …)')
    table = wb.keywords("which Node version does CI use?").set_index("token")
    assert table.loc["which", "outcome"] == table.loc["does", "outcome"] == "dropped: stop word"
    assert list(table[table["outcome"] == "keyword"].index) == ["node", "version", "ci", "use"]


def test_the_scoring_table_describes_the_trace(demo: Demo) -> None:
    """Every row of a hybrid trace obeys the formulas of the tour's scoring table."""
    says("`max_results × 3` = 18 candidates")
    says("`max(0.3·fts + 0.7·vec, fts)` when both signals exist; `fts` alone; else `0.7·vec`")
    says("`0.5 ^ (age / half-life)` for sessions, 1.0 for evergreen memory")
    says("access boost `1 + 0.05·ln(1 + accesses)`")
    assert candidate_limit(demo.config()) == 18
    rows = wb.trace(demo, "which Node version does CI use?").tables()[0]
    created = {c.chunk_id.split("/")[-1]: c.created_at for c in demo.store.index.chunks()}
    for r in rows.to_dict("records"):
        fts, vec = r["fts"], r["vec"]
        merged = max(0.3 * fts + 0.7 * vec, fts) if fts > 0 and vec > 0 else fts or 0.7 * vec
        assert r["merged"] == pytest.approx(merged)
        if not math.isnan(r["distance"]):
            assert vec == pytest.approx(min(max(1 - r["distance"] / 2, 0.0), 1.0))
        age = (demo.now - created[r["chunk"].split("/")[-1]]) / DAY
        evergreen = r["source"] in ("global", "workspace")
        assert r["decay"] == pytest.approx(1.0 if evergreen else 0.5 ** (age / 7.0))
        assert r["boost"] == 1.0  # nothing accessed yet: 1 + 0.05·ln(1 + 0)
        assert r["raw"] == pytest.approx(r["merged"] * r["decay"] * r["source w"] * r["boost"])
        assert r["score"] == pytest.approx(min(max(r["raw"], 0.0), 1.0))


def test_the_node_18_note_falls_to_min_max_not_to_decay(demo: Demo) -> None:
    says('The "moved CI to Node 22" note is found.')
    says("is *not* dropped by decay: it is the worst of the full-text candidates, so")
    says("min–max normalisation gives it a text score of exactly 0 (finding 3a below), and")
    says("it is dropped with decay off too.")
    query = "which Node version does CI use?"
    df = wb.trace(demo, query).tables()[0].set_index("chunk")
    assert "node-upgrade-d4e5f6a7" in df.index[0] and df.iloc[0]["rank"] == 1
    stale = "sessions/2026-01-12-ci-setup-a1b2c3d4.md:0"
    fts_rows = df[df["bm25"].notna()]
    assert df.loc[stale, "bm25"] == fts_rows["bm25"].max() and df.loc[stale, "fts"] == 0.0
    off = wb.trace(demo, query, {"half_life_days": None}).tables()[0].set_index("chunk")
    assert off.loc[stale, "decay"] == 1.0 and not off.loc[stale, "kept"]


def test_where_decay_decides(demo: Demo) -> None:
    says('Ask "Node version for the CI frontend build job" instead, and the January note')
    says("is the *best* text match (`fts` 1.0; the Node 22 note 0.76). With decay off")
    says("(`half_life_days` null) it ranks first")
    says("With c0's 7-day half-life its decay at 62 days is 0.002 and it is dropped. The")
    says("Node 22 note (10 days old, decay 0.38) does not pass `min_score` either, so c0")
    says("answers nothing rather than the stale fact.")
    df = wb.decay_side_by_side(demo, "Node version for the CI frontend build job")
    stale = df.loc["sessions/2026-01-12-ci-setup-a1b2c3d4.md:0"]
    fresh = df.loc["sessions/2026-03-05-node-upgrade-d4e5f6a7.md:0"]
    assert df.index[0] == stale.name and stale["fts"] == 1.0 and round(fresh["fts"], 2) == 0.76
    assert stale["decay off: rank"] == 1
    assert demo.base.half_life_days == 7.0
    on = "half-life 7 d: rank"
    assert round(stale["age (days)"]) == 62 and round(stale["decay"], 3) == 0.002
    assert round(fresh["age (days)"]) == 10 and round(fresh["decay"], 2) == 0.38
    assert df[on].isna().all()  # nothing is returned with c0's decay
    assert (df["merged"] * df["decay"] < demo.base.min_score).all()


def test_the_worst_text_match_and_the_payments_search(demo: Demo) -> None:
    says("with only two candidates, the second one is dropped however good it is")
    says("the worst text match can still pass on its vector score, `0.7·vec`")
    says("The other one (the payments session) is 23 days old")
    fts_only = wb.trace(demo, "payments", {"vectors": False}).tables()[0]
    assert list(fts_only["fts"]) == [1.0, 0.0] and not fts_only["kept"].any()
    ages = wb.session_ages(demo).set_index("chunk")
    assert round(ages.loc["2026-02-20-payments-retry-c3d4e5f6.md:0", "age (days)"]) == 23
    hybrid = wb.trace(demo, "payments").tables()[0]
    worst = hybrid[hybrid["bm25"] == hybrid["bm25"].max()].iloc[0]
    assert worst["fts"] == 0.0 and worst["merged"] == pytest.approx(0.7 * worst["vec"])


def test_the_age_limit_and_the_access_boost(demo: Demo) -> None:
    says("For c0 (7 days, 0.35) that is **10.6 days**")
    says("the later release (30 days, 0.7) moves the limit to 15.4 days")
    says("after 10 such searches, `half-life · log2(boost / min_score)` is about 11.7 days in c0")
    table = wb.age_limit_table(accesses=[0, 10]).set_index("profile")
    assert table.loc["grok-c0", "age limit (days)"] == pytest.approx(10.6, abs=0.05)
    assert table.loc["grok-2026-08", "age limit (days)"] == pytest.approx(15.4, abs=0.05)
    assert table.loc["grok-c0", "after 10 accesses"] == round(age_limit(7.0, 0.35, 10), 2)
    assert round(age_limit(7.0, 0.35, 10), 1) == 11.7
    says("In the demo, every session older than the limit is out of reach.")
    ages = wb.session_ages(demo)
    old = ages[ages["age (days)"] > age_limit(7.0, 0.35)]
    assert len(old) and not old["can pass min_score"].any()
    assert ages[ages["age (days)"] < age_limit(7.0, 0.35)]["can pass min_score"].all()


def test_mmr_in_the_profiles() -> None:
    says("c0 ships MMR *off*; the later release turns it on at λ 0.7")
    assert not profile("grok-c0").search.mmr.enabled
    later = profile("grok-2026-08").search.mmr
    assert later.enabled and later.lambda_ == 0.7


@pytest.mark.slow  # a replay of the whole shipped dataset: CI's slow suite
def test_the_evergreen_supplement_on_the_dataset() -> None:
    says("min–max normalisation gives them the lowest text scores of the query (the worst")
    says("exactly 0). Without vectors, a supplement row passes `min_score` only when")
    says("the main list is bunched together and the supplement reaches much further down")
    says("With vectors on, more of them pass on their vector score.")
    says("as the new bottom of the min–max range, they stretch it")
    says("main list spans at most `1 − min_score` of the whole range")
    data = wb.prepare_dataset("agent-memory")
    limit = candidate_limit(profile("grok-c0").search)
    batch = data.batch(limit)
    only = (batch.fts_pos >= limit) & (batch.supp_pos < limit)
    for q in np.unique(batch.segment[only]):  # the rows rank below the main list
        own = np.arange(batch.offsets[q], batch.offsets[q + 1])
        main = own[batch.fts_pos[own] < limit]
        assert batch.fts_rank[own[only[own]]].min() >= batch.fts_rank[main].max()
    tally = wb.supplement_tally(data).set_index("run")
    fts, hybrid = tally.loc["fts"], tally.loc["hybrid"]
    assert 0 < fts["passed min_score"] < hybrid["passed min_score"]
    assert fts["queries whose hits change without it"] > 0  # FTS-only changes too
    assert np.all(tally["supplement-only candidates"] > 0)
    passes = wb.supplement_passes(data)
    assert len(passes) == fts["passed min_score"]
    min_score = profile("grok-c0").search.min_score
    assert (passes["main share of the range"] <= 1 - min_score + 1e-12).all()
    assert (passes["fts"] >= min_score).all()
