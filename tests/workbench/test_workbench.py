"""The notebook-facing functions, in-process: what the notebooks show holds.

The tour's findings are checked here as the notebook presents them (traces and
tables), so a change to the engine that changes a finding fails a test rather
than silently changing the story the notebook tells.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

import memlab.workbench as wb
from memlab.errors import ConfigError, ReportError
from memlab.report.shipped_paths import resolve_dataset
from memlab.workbench.findings import accesses_needed, age_limit
from memlab.workbench.supplement import passes_only_with_vectors
from memlab.workbench.tour import Demo

SESSION = "shop-api-3f2a9c1d/sessions/2026-03-15-db-upgrade-c0ffee12.md"


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Demo]:
    d = wb.open_demo(str(tmp_path / "tour"), watch=False)
    yield d
    d.close()


def test_the_worst_fts_candidate_scores_exactly_zero(demo: Demo) -> None:
    panel = wb.trace(demo, "payments", {"vectors": False})
    df = panel.tables()[0]
    assert list(df["fts"]) == [1.0, 0.0]
    assert list(df["source"]) == ["session", "workspace"]
    assert not df["kept"].any() and "0 hit(s) returned" in panel.notes[1]
    tie = wb.trace(demo, "pytest", {"vectors": False}).tables()[0]
    assert list(tie["fts"]) == [1.0, 0.0, 0.0]  # the bottom is shared


def test_the_age_limit(demo: Demo) -> None:
    assert age_limit(7.0, 0.35) == pytest.approx(10.60, abs=0.01)
    assert list(wb.age_limit_table()["age limit (days)"]) == [10.6, 15.44]
    ages = wb.session_ages(demo)
    old = ages[ages["age (days)"] > 10.6]
    assert len(old) == 3 and not old["can pass min_score"].any()
    assert ages[ages["age (days)"] < 10.6]["can pass min_score"].all()
    assert accesses_needed(0.5, 0.35) == "0" and accesses_needed(0.0, 0.35) == "never"
    assert accesses_needed(0.3, 0.35) == f"{math.ceil(math.expm1((0.35 / 0.3 - 1) / 0.05)):,}"


def test_the_newest_fact_wins(demo: Demo) -> None:
    df = wb.trace(demo, "which Node version does CI use?").tables()[0]
    first = df.iloc[0]
    assert first["rank"] == 1 and "node-upgrade-d4e5f6a7" in first["chunk"]
    old = df[df["chunk"].str.contains("ci-setup")].iloc[0]
    assert old["decay"] < 0.01 and not old["kept"]


def test_sync_on_search_without_a_watcher(demo: Demo) -> None:
    edited = wb.edit_memory(demo, SESSION, "# DB\n\nUpgraded Postgres to 16.\n")
    assert any("stat scan" in n for n in edited.notes)
    found = wb.live_search(demo, "postgres version")
    assert "indexed" in found.notes[0]
    assert found.tables()[0]["chunk"].iloc[0].endswith("db-upgrade-c0ffee12.md:0")
    wb.remove_memory(demo, SESSION)
    gone = wb.live_search(demo, "postgres version")
    assert "deleted" in gone.notes[0] and gone.tables()[0].empty


def test_sync_on_search_with_the_watcher(tmp_path: Path) -> None:
    live = wb.open_demo(str(tmp_path / "live"))
    try:
        note = wb.edit_memory(live, SESSION, "# DB\n\nUpgraded Postgres to 16.\n")
        assert any("the watcher reported it" in n for n in note.notes)
        assert SESSION in note.notes[-1]
        assert not wb.live_search(live, "postgres version").tables()[0].empty
    finally:
        assert "closed" in wb.close_demo(live)


def test_degradation_and_mmr(demo: Demo) -> None:
    panel = wb.degradation(demo, "dev server port")
    assert panel.notes[0].startswith("working embedder: degraded=False")
    assert "degraded=True" in panel.notes[1] and "injected embedding failure" in panel.notes[1]
    working, failing = panel.tables()
    assert list(working["chunk"]) == list(failing["chunk"])  # FTS-only results remain
    assert demo.store.embedder is not None and "faulty" not in demo.store.embedder.id
    overrides = {"vectors": False, "half_life_days": 30, "max_results": 3}
    table = wb.mmr_side_by_side(demo, "redis port node ci", [0.5], overrides=overrides)
    assert list(table.columns) == ["MMR off", "MMR λ=0.5"]
    assert table.loc[2, "MMR off"] != table.loc[2, "MMR λ=0.5"]  # MMR pushes the duplicate down


def test_access_boost_grows(demo: Demo) -> None:
    df = wb.access_boost_demo(demo, "redis cache port", 3)
    top = df[df["chunk"] == df["chunk"].iloc[0]]
    assert list(top["boost"]) == sorted(top["boost"]) and top["boost"].iloc[-1] > 1.0


@pytest.mark.slow  # a replay of the whole shipped dataset: CI's slow suite
def test_supplement_rows_passing_without_vectors_and_only_with_them() -> None:
    data = wb.prepare_dataset("agent-memory")
    tally = wb.supplement_tally(data).set_index("run")
    assert tally.loc["fts", "highest fts"] < 1.0  # never the best text match
    assert tally.loc["fts", "passed min_score"] < tally.loc["hybrid", "passed min_score"]
    with_vectors = passes_only_with_vectors(data)
    assert with_vectors
    panel = wb.supplement_example(data)
    assert panel.title.startswith(f"{with_vectors[0]}:")
    fts, hybrid = (t[t["supplement"].notna()].set_index("chunk")["kept"] for t in panel.tables())
    assert (~fts & hybrid.reindex(fts.index)).any()  # kept only with vectors


def test_agent_failure_modes(tmp_path: Path) -> None:
    ws = wb.example_agents(str(tmp_path / "project"))
    modes = wb.failure_modes(ws).set_index("scenario")
    assert modes.loc["role and persona fine", "proceeds"]
    assert not modes.loc["persona instructions file missing", "proceeds"]
    assert not modes.loc["persona not found (typo)", "proceeds"]
    assert "did you mean 'terse'" in modes.loc["persona not found (typo)", "persona_error"]
    soft = modes.loc["role prompt file missing"]
    assert soft["proceeds"] and "continuing without it" in soft["role_prompt_warning"]
    iso = wb.matrix_view("isolation", "role", "persona")
    assert iso.loc["invalid", "worktree"] == "none (role)"  # shadowed before parsing
    assert iso.loc["unset", "worktree"] == "worktree (persona)"
    abort = wb.resolve_table(ws, "reviewer", persona="ghostwriter")
    assert "ABORTS" in abort.notes[0]
    assert "PROCEEDS" in wb.resolve_table(ws, "docs-writer", persona="").notes[0]
    assert "wrote" in wb.save_agents(ws, str(tmp_path / "out"))


def test_benchmark_configs() -> None:
    configs = wb.benchmark_configs(["fts", "mmr", "hybrid@grok-2026-08"], mmr_lambda=0.4)
    assert not configs["fts"].vectors
    assert configs["mmr"].mmr.enabled and configs["mmr"].mmr.lambda_ == 0.4
    assert configs["hybrid@grok-2026-08"].half_life_days == 30.0
    with pytest.raises(ConfigError, match="unknown run 'hybird'"):
        wb.benchmark_configs(["hybird"])
    with pytest.raises(ConfigError, match="unknown profile"):
        wb.benchmark_configs(["fts@grok-1999"])


def test_dataset_names_resolve(tiny_dataset: Path) -> None:
    assert resolve_dataset("agent-memory").name == "agent-memory"
    assert resolve_dataset(str(tiny_dataset)) == tiny_dataset.resolve()
    with pytest.raises(ReportError, match="did you mean 'agent-memory'"):
        resolve_dataset("agent-memroy")


def test_display_objects() -> None:
    plot = wb.decay_limit_plot()
    data, meta = plot._repr_png_()
    assert data.startswith(b"\x89PNG") and meta == {"alt": "age limit"}
    panel = wb.Panel("t", ["a note"]).add("caption", wb.age_limit_table()).add("plot", plot)
    html = panel._repr_html_()
    assert "<h4>t</h4>" in html and "data:image/png;base64," in html and "<table" in html
    assert "a note" in repr(panel)
    env = wb.setup()
    assert "memlab" in set(env["component"])
