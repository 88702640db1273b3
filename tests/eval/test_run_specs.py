"""``parse_run_specs``: run names, ``ranker@profile`` and ``NAME=FILE.yaml`` in one parser."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from memlab.config import SearchConfig, profile
from memlab.errors import ConfigError
from memlab.eval.runs.rankers import RANKERS, parse_run_specs, run_label


def test_names_profiles_and_files(tmp_path: Path) -> None:
    tuned = tmp_path / "tuned.yaml"
    tuned.write_text("half_life_days: 30\nmmr:\n  enabled: true\n  lambda: 0.5\n")
    runs = parse_run_specs(f"fts, hybrid@grok-2026-08 ,mine={tuned}")
    assert list(runs) == ["fts", "hybrid@grok-2026-08", "mine"]
    assert runs["fts"].config == RANKERS["fts"](SearchConfig())
    assert runs["hybrid@grok-2026-08"].config == RANKERS["hybrid"](profile("grok-2026-08").search)
    mine = runs["mine"].config
    assert mine.half_life_days == 30 and mine.mmr.enabled and mine.mmr.lambda_ == 0.5
    assert mine == replace(SearchConfig(), half_life_days=30, mmr=mine.mmr)
    assert runs["mine"].spec == f"mine={tuned}"


def test_a_file_with_sections_and_a_profile(tmp_path: Path) -> None:
    tuned = tmp_path / "later.yaml"
    tuned.write_text("profile: grok-2026-08\nsearch:\n  min_score: 0.5\n")
    config = parse_run_specs([f"later={tuned}"])["later"].config
    assert config == replace(profile("grok-2026-08").search, min_score=0.5)


def test_rankers_start_from_the_base() -> None:
    base = replace(SearchConfig(), half_life_days=3.0)
    assert parse_run_specs("mmr", base=base)["mmr"].config.half_life_days == 3.0


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        ("fts,hybird", "unknown run 'hybird'; did you mean 'hybrid'"),
        ("fts,fts", "named twice"),
        ("my run=x.yaml", "NAME a plain word"),
        ("mine=", "NAME a plain word"),
        ("mine=missing.yaml", "not found"),
        (" , ", "no runs given"),
        ("hybrid@grok-9", "unknown profile"),
    ],
)
def test_bad_specs(specs: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_run_specs(specs)


def test_a_run_file_holds_ranking_and_index_settings_only(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("dream:\n  min_hours: 1\n")
    with pytest.raises(ConfigError, match="shape the replay, not the run"):
        parse_run_specs(f"bad={bad}")
    index = tmp_path / "index.yaml"
    index.write_text(
        "search: {min_score: 0.2}\nindex:\n  tokenizer: porter\n  chunking: {max_bytes: 800}\n"
    )
    run = parse_run_specs(f"mine={index}")["mine"]
    assert run.config.min_score == 0.2
    assert dict(run.index) == {"tokenizer": "porter", "chunk_bytes": 800}
    index.write_text("index:\n  chunking: {max_byte: 800}\n")
    with pytest.raises(ConfigError, match="did you mean 'max_bytes'"):
        parse_run_specs(f"mine={index}")
    typo = tmp_path / "typo.yaml"
    typo.write_text("half_lif_days: 3\n")
    with pytest.raises(ConfigError, match="did you mean 'half_life_days'"):
        parse_run_specs(f"typo={typo}")


def test_labels_say_whose_filters_a_run_ranks_under(tmp_path: Path) -> None:
    tuned = tmp_path / "tuned.yaml"
    tuned.write_text("strategy: rrf\n")
    specs = "fts,hybrid,mmr,rrf,openclaw,basic-memory,hybrid@grok-2026-08,mmr@grok-c0"
    runs = parse_run_specs(f"{specs},mine={tuned}")
    labels = {name: run_label(name, run.config) for name, run in runs.items()}
    assert labels == {
        "fts": "c0 FTS-only",
        "hybrid": "c0 hybrid",
        "mmr": "c0 hybrid + MMR λ 0.7",
        "rrf": "c0 + rrf merge",
        "openclaw": "c0 + openclaw merge",
        "basic-memory": "c0 + basic-memory merge",
        "hybrid@grok-2026-08": "grok-2026-08 hybrid + MMR λ 0.7",  # the profile ships MMR on
        "mmr@grok-c0": "c0 hybrid + MMR λ 0.7",
        "mine": "mine's own configuration + rrf merge",
    }
