"""What the compare and sweep notebooks teach, computed on the shipped dataset.

Each test quotes the notebook's text (``says``) and checks it with the functions
the notebook's cells call, so the text cannot drift from what the engine does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import memlab.workbench as wb
from memlab.eval.compare.breakdown import age_bucket
from memlab.eval.compare.separation import END_TO_END, RANKING_ONLY, Separation
from memlab.store.layout import is_evergreen
from memlab.sweep import Sweep, SweepResult

# One replay of the shipped dataset under c0 for this module and its neighbour
# (tests/conftest.py: shared_benchmarks, SHARED_SCOPES).
pytestmark = pytest.mark.usefixtures("shared_benchmarks")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def text_of(name: str) -> str:
    cells = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    return " ".join(
        " ".join("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown"
    )


def says(notebook: str, text: str) -> None:
    assert " ".join(text.split()) in text_of(notebook), f"{notebook} no longer says: {text!r}"


@pytest.fixture(scope="module")
def engine() -> Sweep:
    return wb.sweep_engine("agent-memory")


def test_the_half_life_trades_young_answers_against_old_ones(engine: Sweep) -> None:
    says("sweep", "Young answers gain from decay: without it,")
    says("sweep", "Answers a few weeks old lose with a short half-life, which pushes them")
    says("sweep", "under `min_score`.")
    table = wb.half_life_by_age(engine, (1.0, 7.0, 14.0, 30.0, None))
    young = next(c for c in table.columns if c.startswith("≤ 1 d"))
    weeks = next(c for c in table.columns if c.startswith("7–30 d"))
    for half_life in (7.0, 14.0, 30.0):
        assert table.loc[half_life, young] > table.loc["off", young]
    assert table.loc[1.0, weeks] < table.loc[7.0, weeks] < table.loc["off", weeks]
    says("sweep", "For the dataset's mix (its README gives it) the balance tips to no decay")
    says("sweep", "overall, ahead of a 30-day half-life.")
    ranked = table["all"].sort_values(ascending=False).index
    assert list(ranked[:2]) == ["off", 30.0]


@pytest.fixture(scope="module")
def first() -> Separation:
    """The first comparison of the README: fts, hybrid and mmr under c0."""
    return wb.separate(wb.run_compare("agent-memory", ["fts", "hybrid", "mmr"]))


def test_few_hits_left_for_mmr_end_to_end(first: Separation) -> None:
    says("sweep", "End to end under c0, decay and `min_score` leave few")
    says("compare", "end to end, decay and `min_score` often leave too few hits for a re-ranker")
    says("compare", "a ranker whose gain shows only ranking only (MMR on near-duplicates)")
    sep = first
    mmr = sep.changes[sep.changes["run"] == "mmr"]
    changes = mmr.groupby("view")["changed"].sum()
    assert changes["end to end"] * 5 < changes["ranking only"]
    dup = sep.category_table("NRAll@10").loc["duplicates"]
    assert dup[("end to end", "mmr")] == dup[("end to end", "hybrid")]
    assert dup[("ranking only", "mmr")] > dup[("ranking only", "hybrid")]


def test_end_to_end_answers_weeks_old_score_lowest(first: Separation) -> None:
    says("compare", "end, answers one to four weeks old score lowest, because the session notes")
    says("compare", "that hold them decay below `min_score`; every reachable answer older than 30")
    says("compare", "days lives in evergreen memory (a `MEMORY.md`), which does not decay.")
    says("compare", "Ranking only, the answers 7–30 days old are found far more often.")
    table = first.age_table()
    for run in first.runs:
        e2e, only = table[(END_TO_END, run)], table[(RANKING_ONLY, run)]
        assert e2e["7–30 d"] == min(e2e[b] for b in ("≤ 1 d", "1–7 d", "7–30 d", "30–180 d"))
        assert e2e["1–7 d"] < e2e["≤ 1 d"]  # a few days of decay already cost
        assert only["7–30 d"] > e2e["7–30 d"] + 0.1
    reach = first.reachability
    reach = reach[(reach["run"] == first.runs[0]) & reach["reachable"]]
    old = reach[[age_bucket(a) == "30–180 d" for a in reach["answer_age_days"]]]
    assert len(old) > 1 and all(is_evergreen(s) for s in old["source"])
    young = reach[[age_bucket(a) == "1–7 d" for a in reach["answer_age_days"]]]
    assert not all(is_evergreen(s) for s in young["source"])  # sessions there


def test_a_peer_merge_passes_min_score_more_often() -> None:
    says("compare", "a peer merge whose scores run higher passes `min_score` more often")
    says("compare", "A merge whose scores run higher (rrf, basic-memory) sits further right")
    exp = wb.run_compare("agent-memory", ["hybrid", "rrf", "basic-memory"])
    sweep = wb.separate(exp).min_score.set_index(["run", "min_score"])["AbstainHits"]
    for peer in ("rrf", "basic-memory"):
        assert sweep[(peer, 0.35)] > sweep[("hybrid", 0.35)]


def defaults(notebook: str) -> dict[str, Any]:
    """The notebook's parameters as its parameters cell sets them."""
    import ast

    from memlab.report.notebooks import inspect

    found = inspect(NOTEBOOKS / f"{notebook}.ipynb")
    return {name: ast.literal_eval(p.source) for name, p in found.items()}


@pytest.fixture(scope="module")
def decay(engine: Sweep) -> SweepResult:
    """The sweep notebook's half-life sweep, at the notebook's defaults."""
    p = defaults("sweep")
    space = {
        "half_life_days": p["half_lives"],
        "source_weights.session": p["session_weights"],
        "min_score": p["min_scores"],
    }
    return wb.sweep(engine, space)


def test_the_best_score_whatever_it_costs_lets_everything_through(
    decay: SweepResult,
) -> None:
    says("sweep", "Whatever it costs, the best nDCG@10 on dev lowers `min_score` to the grid's")
    says("sweep", "lowest value and returns more than twice the base profile's false hits and")
    says("sweep", "tokens: it wins by letting everything through.")
    p = defaults("sweep")
    free = wb.decide(decay, p["measure"], "quality", splits=p["splits"])
    row, base = free.candidates.iloc[free.chosen], free.candidates.iloc[free.base]
    assert free.point.overrides["min_score"] == min(p["min_scores"])
    for cost in ("AbstainHits", "Tokens"):
        assert row[f"{cost}:dev"] > 2 * base[f"{cost}:dev"]


def test_the_default_rule_holds_the_costs_and_its_gain_is_not_shown_on_holdout(
    decay: SweepResult,
) -> None:
    says("sweep", "The default rule keeps both costs within 5 % of the base's and still gains on")
    says("sweep", "dev, but on holdout that gain's confidence interval includes 0.")
    says("sweep", "among the configurations whose `AbstainHits` and `Tokens` are no more than 5 %")
    p = defaults("sweep")
    assert p["objective"] == "constrained" and p["cost_tolerance"] == 0.05
    d = wb.decide(decay, p["measure"], "constrained", 0.05, splits=p["splits"])
    row, base = d.candidates.iloc[d.chosen], d.candidates.iloc[d.base]
    for cost in ("AbstainHits", "Tokens"):
        assert row[f"{cost}:dev"] <= 1.05 * base[f"{cost}:dev"]
    assert row["nDCG@10:dev"] > base["nDCG@10:dev"]
    assert d.gain.ci[0] < 0 < d.gain.ci[1]
    assert any("includes 0" in w for w in d.warnings)
    says("sweep", "Chosen again on five other splits, the")
    says("sweep", "optimism of either choice (dev gain minus holdout gain) stays under 0.01")
    free = wb.decide(decay, p["measure"], "quality", splits=p["splits"])
    assert p["splits"] == 5
    for decision in (d, free):
        assert decision.resplits is not None and abs(decision.resplits.optimism) < 0.01
    panel = wb.decision_panel(d)
    assert panel.notes[0] == f"rule: {d.rule_text}" and panel.tables()[0].shape[1] == 3
    assert len(wb.front_tables(d).tables()) == 2 and wb.front_plot(d).png()
