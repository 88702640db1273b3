"""The one table from memlab's settings to Grok's (SPEC §6) and OpenClaw's, key by key."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest

from memlab.agents._toml import loads as toml_loads
from memlab.config import ChunkingConfig, IndexConfig, MmrConfig, SearchConfig
from memlab.export import SETTINGS, carry, grok_toml, mapping_markdown, openclaw_block
from memlab.export.agent_settings import mapping_rows
from memlab.sweep.caveats import MIN_HOLDOUT
from memlab.sweep.choice import DEFAULT_TOLERANCE

SEARCH = SearchConfig(
    max_results=9,
    min_score=0.27,
    vector_weight=0.61,
    text_weight=0.44,
    temporal_decay=True,
    half_life_days=21.0,
    recency_decay=0.9,
    source_weights={"session": 0.8},
    mmr=MmrConfig(enabled=True, lambda_=0.55),
    strategy="rrf",
    candidate_multiplier=5,
    evergreen_supplement=False,
    vectors=False,
    keywords="index",
)
INDEX = IndexConfig(tokenizer="trigram", chunking=ChunkingConfig(800, 160, "record", ("user",)))
NONE = None
# memlab key → (Grok key, value in the TOML, OpenClaw key, value in the JSON); None: no key
EXPECTED: dict[str, tuple[str | None, Any, str | None, Any]] = {
    "search.max_results": ("max_results", 9, "query.maxResults", 9),
    "search.min_score": ("min_score", 0.27, "query.minScore", 0.27),
    "search.vector_weight": ("vector_weight", 0.61, "query.hybrid.vectorWeight", 0.61),
    "search.text_weight": ("text_weight", 0.44, "query.hybrid.textWeight", 0.44),
    "search.temporal_decay": (
        "temporal_decay",
        True,
        "query.hybrid.temporalDecay.enabled",
        True,
    ),
    "search.half_life_days": (
        "half_life_days",
        21.0,
        "query.hybrid.temporalDecay.halfLifeDays",
        21.0,
    ),
    "search.recency_decay": ("recency_decay", 0.9, NONE, NONE),
    "search.mmr.enabled": ("mmr.enabled", True, "query.hybrid.mmr.enabled", True),
    "search.mmr.lambda": ("mmr.lambda", 0.55, "query.hybrid.mmr.lambda", 0.55),
    "search.source_weights": ("source_weights", {"session": 0.8}, NONE, NONE),
    "search.candidate_multiplier": (NONE, NONE, "query.hybrid.candidateMultiplier", 5),
    "search.strategy": (NONE, NONE, NONE, NONE),
    "search.evergreen_supplement": (NONE, NONE, NONE, NONE),
    "search.vectors": (NONE, NONE, "provider", "none"),
    "search.keywords": (NONE, NONE, NONE, NONE),
    "search.knn": (NONE, NONE, NONE, NONE),
    "index.tokenizer": (NONE, NONE, "store.fts.tokenizer", "trigram"),
    "index.chunking.max_bytes": ("chunking.max_bytes", 800, NONE, NONE),
    "index.chunking.overlap_chars": ("chunking.overlap_chars", 160, NONE, NONE),
    "index.chunking.mode": (NONE, NONE, NONE, NONE),
    "index.chunking.roles": (NONE, NONE, NONE, NONE),
    "index.max_file_bytes": (NONE, NONE, NONE, NONE),
    "index.created_at_rule": (NONE, NONE, NONE, NONE),
}


def at(data: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        data = data[part]
    return data


def leaves(obj: Any, prefix: str) -> list[str]:
    """Every setting of a config class, by dotted path (mappings are one setting)."""
    out = []
    for f in dataclasses.fields(obj):
        name = "lambda" if f.name == "lambda_" else f.name
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            out += leaves(value, f"{prefix}{name}.")
        else:
            out.append(f"{prefix}{name}")
    return out


def test_the_table_covers_every_memlab_setting_once() -> None:
    keys = [s.key for s in SETTINGS]
    assert len(keys) == len(set(keys))
    every = leaves(SearchConfig(), "search.") + leaves(IndexConfig(), "index.")
    assert sorted(keys) == sorted(every)  # a new setting needs a row: none is dropped
    assert sorted(EXPECTED) == sorted(keys)


@pytest.mark.parametrize("key", list(EXPECTED))
def test_each_setting_lands_where_the_table_says(key: str) -> None:
    grok_key, grok_value, claw_key, claw_value = EXPECTED[key]
    row = next(s for s in SETTINGS if s.key == key)
    assert (row.grok, row.openclaw) == (grok_key, claw_key)
    toml = toml_loads(grok_toml(SEARCH, INDEX))
    block = at(openclaw_block(SEARCH, INDEX), "agents.defaults.memorySearch")
    if grok_key:
        assert at(toml, grok_key) == grok_value
    if claw_key:
        assert at(block, claw_key) == claw_value
    grok = {c.setting.key: c for c in carry("grok", SEARCH, INDEX)}[key]
    claw = {c.setting.key: c for c in carry("openclaw", SEARCH, INDEX)}[key]
    assert grok.written == bool(grok_key) and claw.written == bool(claw_key)


def test_every_setting_without_a_counterpart_is_listed_in_the_grok_file() -> None:
    text = grok_toml(SEARCH, INDEX)
    assert "keys follow the names of SPEC §6's configuration table" in text
    assert "Grok's own settings-file layout is not" in text
    sets = next(line for line in text.splitlines() if line.startswith("# Sets: "))
    for key, (grok_key, *_rest) in EXPECTED.items():
        if grok_key:
            assert grok_key in sets
        else:
            assert f"#   {key} = " in text, key
    assert "#   search.strategy = rrf: no key; Grok behaves otherwise" in text


def test_the_listing_names_what_each_agent_got_or_why_not() -> None:
    rows = {r["memlab"]: r for r in mapping_rows(SEARCH, INDEX)}
    assert set(rows) == set(EXPECTED)
    assert rows["search.source_weights"]["OpenClaw"].startswith("no key; OpenClaw behaves")
    assert rows["search.candidate_multiplier"]["Grok"] == (
        "no key; Grok behaves otherwise, so this does not carry over"
    )
    assert rows["index.tokenizer"]["OpenClaw"] == "store.fts.tokenizer = trigram"
    porter = {r["memlab"]: r for r in mapping_rows(SEARCH, IndexConfig(tokenizer="porter"))}
    assert "porter does not carry over" in porter["index.tokenizer"]["OpenClaw"]


def test_no_decay_is_inf_in_toml_and_off_in_openclaw() -> None:
    off = dataclasses.replace(SEARCH, half_life_days=None, vectors=True)
    toml = toml_loads(grok_toml(off, INDEX))
    assert toml["half_life_days"] == math.inf and toml["temporal_decay"] is True
    decay = at(openclaw_block(off, INDEX), "agents.defaults.memorySearch.query.hybrid")
    assert decay["temporalDecay"] == {"enabled": False}
    assert "provider" not in at(openclaw_block(off, INDEX), "agents.defaults.memorySearch")
    legacy = dataclasses.replace(SEARCH, temporal_decay=False, recency_decay=0.95)
    half = at(openclaw_block(legacy, INDEX), "agents.defaults.memorySearch.query.hybrid")
    assert half["temporalDecay"]["halfLifeDays"] == pytest.approx(-1 / math.log2(0.95))
    json.dumps(openclaw_block(off, INDEX), allow_nan=False)  # plain JSON


def test_the_docs_show_the_table_and_the_rule_s_constants() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "decide.md").read_text()
    assert mapping_markdown() in docs
    assert DEFAULT_TOLERANCE == 0.05 and "(default 0.05: 5 %)" in docs
    assert MIN_HOLDOUT == 30 and "fewer than 30 scored" in " ".join(docs.split())
