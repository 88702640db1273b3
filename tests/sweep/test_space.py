"""Search spaces: grids, seeded random draws, validation with did-you-mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.config import SearchConfig, config_hash, with_overrides
from memlab.errors import ConfigError
from memlab.sweep import grid, load_grid, random_configs, shipped_grids
from memlab.sweep.space import as_points, config_diff

EXAMPLE = shipped_grids()["broad"]


def test_grid_is_the_product_in_file_order() -> None:
    points = grid({"half_life_days": [1, 7, None], "mmr": {"lambda": [0.5, 1.0]}})
    assert [p.overrides for p in points[:3]] == [
        {"half_life_days": 1, "mmr.lambda": 0.5},
        {"half_life_days": 1, "mmr.lambda": 1.0},
        {"half_life_days": 7, "mmr.lambda": 0.5},
    ]
    assert len(points) == 6
    assert points[4].config.half_life_days is None  # null = no decay
    assert points[1].config.mmr.lambda_ == 1.0
    assert points[0].key == config_hash(points[0].config)


def test_grid_applies_to_the_base_and_drops_duplicates() -> None:
    base = SearchConfig(min_score=0.0)
    points = grid({"max_results": [6, 6.0, 10], "source_weights.session": 0.5}, base)
    assert [p.config.max_results for p in points] == [6, 10]
    assert all(p.config.min_score == 0.0 for p in points)
    assert points[0].config.source_weight("session") == 0.5


@pytest.mark.parametrize(
    ("space", "hint"),
    [
        ({"mmr.lamda": [0.5]}, "did you mean 'lambda'?"),
        ({"half_life": [7]}, "did you mean 'half_life_days'?"),
        ({"source_weights.sesion": [0.5]}, "did you mean 'session'?"),
        ({"strategy": ["rrff"]}, "did you mean 'rrf'?"),
        ({"max_results": [0]}, "max_results must be >= 1"),
        ({"mmr.enabled": ["yes"]}, "expected true or false"),
        ({"min_score": []}, "empty list"),
        ({}, "empty"),
    ],
)
def test_bad_spaces_are_clear_errors(space: dict[str, object], hint: str) -> None:
    with pytest.raises(ConfigError, match=hint.replace("?", r"\?")):
        grid(space)


def test_random_draws_are_seeded_distinct_and_checked() -> None:
    space = {
        "half_life_days": {"loguniform": [1, 90]},
        "vector_weight": {"uniform": [0.2, 0.9]},
        "max_results": {"randint": [3, 12]},
        "strategy": ["grok", "rrf"],
    }
    a = random_configs(space, 30, seed=4)
    b = random_configs(space, 30, seed=4)
    c = random_configs(space, 30, seed=5)
    assert [p.key for p in a] == [p.key for p in b] != [p.key for p in c]
    assert len({p.key for p in a}) == 30
    assert all(1 <= p.config.half_life_days <= 90 for p in a)  # type: ignore[operator]
    assert all(3 <= p.config.max_results <= 12 for p in a)
    assert {p.config.strategy for p in a} == {"grok", "rrf"}
    assert len(random_configs({"strategy": ["grok", "rrf"]}, 10)) == 2  # finite space
    with pytest.raises(ConfigError, match="random search"):
        grid(space)
    with pytest.raises(ConfigError, match="low <= high"):
        random_configs({"min_score": {"uniform": [0.5, 0.1]}}, 3)


def test_configs_become_points_with_their_differences() -> None:
    cfg = with_overrides(SearchConfig(), {"mmr.lambda": 0.3, "source_weights.dream": 0.2})
    assert config_diff(SearchConfig(), cfg) == {"mmr.lambda": 0.3, "source_weights.dream": 0.2}
    (p,) = as_points([cfg], SearchConfig())
    assert p.config is cfg and p.overrides == {"mmr.lambda": 0.3, "source_weights.dream": 0.2}
    (q,) = as_points([{"mmr": {"lambda": 0.3}, "source_weights.dream": 0.2}], SearchConfig())
    assert q.key == p.key


def test_the_example_grid_loads(tmp_path: Path) -> None:
    space = load_grid(EXAMPLE)
    assert "half_life_days" in space and "mmr.lambda" in space
    assert len(grid(space)) > 10
    (tmp_path / "bad.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match="mapping"):
        load_grid(tmp_path / "bad.yaml")
    with pytest.raises(ConfigError, match="not found"):
        load_grid(tmp_path / "missing.yaml")
