from __future__ import annotations

import dataclasses

import pytest

from memlab.config import (
    PROFILES,
    DreamConfig,
    MemlabConfig,
    SearchConfig,
    config_hash,
    from_dict,
    profile,
    to_dict,
    with_overrides,
)
from memlab.errors import ConfigError


def test_c0_defaults() -> None:
    c = profile("grok-c0")
    s = c.search
    assert (s.max_results, s.min_score, s.vector_weight, s.text_weight) == (6, 0.35, 0.7, 0.3)
    assert (s.temporal_decay, s.half_life_days, s.recency_decay) == (True, 7.0, 0.95)
    assert (s.mmr.enabled, s.mmr.lambda_, dict(s.source_weights)) == (False, 0.7, {})
    assert (c.index.chunking.max_bytes, c.index.chunking.overlap_chars) == (1600, 320)
    assert (c.watcher.enabled, c.watcher.claim_stale_secs) == (True, 60.0)
    d = c.dream
    assert (d.enabled, d.min_hours, d.min_sessions, d.stale_lock_secs, d.check_interval_secs) == (
        True,
        4.0,
        3,
        3600.0,
        None,
    )
    assert d.memory_source == "dream" and not d.atomic_write


def test_later_release_profile() -> None:
    c = profile("grok-2026-08")
    assert (c.search.min_score, c.search.half_life_days, c.search.mmr.enabled) == (0.7, 30.0, True)
    assert (c.dream.min_hours, c.dream.min_sessions, c.dream.check_interval_secs) == (
        24.0,
        5,
        3600.0,
    )


def test_unknown_profile_lists_valid_ones() -> None:
    with pytest.raises(ConfigError, match="did you mean 'grok-c0'.*valid: grok-2026-08, grok-c0"):
        profile("grok-c1")


def test_from_dict_rejects_unknown_keys_with_suggestion() -> None:
    with pytest.raises(
        ConfigError, match="unknown configuration key 'mmr.lamda'; did you mean 'lambda'"
    ):
        from_dict(SearchConfig, {"mmr": {"lamda": 0.5}})
    with pytest.raises(ConfigError, match="max_result.*did you mean 'max_results'"):
        from_dict(SearchConfig, {"max_result": 3})


def test_from_dict_type_errors() -> None:
    with pytest.raises(ConfigError, match="max_results: expected an integer"):
        from_dict(SearchConfig, {"max_results": "6"})
    with pytest.raises(ConfigError, match="mmr.enabled: expected true or false"):
        from_dict(SearchConfig, {"mmr": {"enabled": 1}})
    with pytest.raises(ConfigError, match="max_results must be >= 1"):
        from_dict(SearchConfig, {"max_results": 0})


def test_round_trip_and_hash_stability() -> None:
    for cfg in PROFILES.values():
        assert from_dict(MemlabConfig, to_dict(cfg)) == cfg
        assert config_hash(cfg) == config_hash(from_dict(MemlabConfig, to_dict(cfg)))
    assert config_hash(PROFILES["grok-c0"]) != config_hash(PROFILES["grok-2026-08"])


def test_dotted_overrides() -> None:
    s = with_overrides(
        SearchConfig(source_weights={"global": 2.0}),
        {"mmr.lambda": 0.5, "source_weights.session": 0.8, "half_life_days": None},
    )
    assert s.mmr.lambda_ == 0.5 and s.half_life_days is None
    assert dict(s.source_weights) == {"global": 2.0, "session": 0.8}
    with pytest.raises(ConfigError, match="did you mean 'half_life_days'"):
        with_overrides(SearchConfig(), {"half_life_day": 3})


def test_configs_are_frozen_and_hashable() -> None:
    s = SearchConfig(source_weights={"session": 0.5})
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.max_results = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.source_weights["x"] = 1.0  # type: ignore[index]
    assert hash(s) == hash(SearchConfig(source_weights={"session": 0.5}))
    assert hash(DreamConfig()) == hash(DreamConfig())


def test_legacy_recency_decay_when_temporal_decay_is_off() -> None:
    s = SearchConfig(temporal_decay=False)
    assert s.effective_half_life() == pytest.approx(13.513, abs=1e-3)
    assert SearchConfig(temporal_decay=False, recency_decay=None).effective_half_life() is None
    assert SearchConfig(half_life_days=0).effective_half_life() == 0


def test_strategy_names_are_the_scoring_registry() -> None:
    """config.py owns the strategy names; the scoring registry holds exactly those."""
    from memlab.config import STRATEGY_NAMES
    from memlab.retrieval.strategies import STRATEGIES

    assert tuple(STRATEGIES) == STRATEGY_NAMES


def test_an_unknown_strategy_is_rejected_at_construction() -> None:
    with pytest.raises(ConfigError) as err:
        SearchConfig(strategy="rff")
    assert "unknown strategy 'rff'; did you mean 'rrf'" in str(err.value)
    assert "valid: basic-memory, grok, openclaw, rrf" in str(err.value)
    with pytest.raises(ConfigError, match="unknown strategy"):
        dataclasses.replace(SearchConfig(), strategy="RRF")
