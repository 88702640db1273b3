"""The one table from memlab's settings to the agents' own: ``SETTINGS``.

Each row is a memlab setting (a dotted path of ``SearchConfig`` / ``IndexConfig``)
and where it goes:

* **Grok** — the key of SPEC §6's configuration table (Grok's own settings file
  layout is not published; the keys follow SPEC §6's names, ``chunking`` as
  SPEC §2.1's ``max_bytes`` / ``overlap_chars``);
* **OpenClaw** — the path under ``agents.defaults.memorySearch`` in
  ``openclaw.json``, as OpenClaw's memory configuration reference documents
  them (``query.maxResults``, ``query.minScore``, ``query.hybrid.vectorWeight`` /
  ``textWeight`` / ``candidateMultiplier``, ``query.hybrid.mmr.enabled`` /
  ``lambda``, ``query.hybrid.temporalDecay.enabled`` / ``halfLifeDays``,
  ``store.fts.tokenizer``, ``provider``).

A setting with no counterpart in a target (``None``) is never dropped silently:
``carry`` lists it with its value and whether the agent's fixed behaviour
matches it (``grok_fixed`` / ``openclaw_fixed``, the value the agent always
behaves as) or not. An ``Omitted`` (from a value function) leaves a key out on purpose and
says why (e.g. ``halfLifeDays`` when decay is off).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from memlab.config import IndexConfig, SearchConfig, flatten, to_dict


@dataclass(frozen=True)
class Omitted:
    """A value function's "leave this key out", and why."""

    reason: str = ""


OMIT = Omitted()  # also: no fixed behaviour known
Value = Callable[[SearchConfig, IndexConfig], Any]
SPEC_GROK = "SPEC §6"
OPENCLAW_ROOT = ("agents", "defaults", "memorySearch")


def _path(key: str) -> Value:
    """The memlab value at a dotted path (``search.mmr.lambda``, ``index.tokenizer``)."""
    section, _, rest = key.partition(".")

    def value(search: SearchConfig, index: IndexConfig) -> Any:
        node: Any = search if section == "search" else index
        for part in rest.split("."):
            node = getattr(node, "lambda_" if part == "lambda" else part)
        if isinstance(node, Mapping):
            return dict(node)
        return list(node) if isinstance(node, tuple) else node

    return value


def _half_life(search: SearchConfig, index: IndexConfig) -> Any:
    h = search.half_life_days
    return math.inf if h is None else h  # TOML has no null: inf decays nothing


def _openclaw_half_life(search: SearchConfig, index: IndexConfig) -> Any:
    if _openclaw_decay_on(search, index):
        return search.effective_half_life()
    return Omitted("no half-life applies: temporalDecay.enabled = false says so")


def _openclaw_decay_on(search: SearchConfig, index: IndexConfig) -> Any:
    h = search.effective_half_life()  # none, <= 0 or inf: no decay (SPEC §4.3)
    return h is not None and 0 < h < math.inf


def _recency(search: SearchConfig, index: IndexConfig) -> Any:
    if search.recency_decay is None:
        return Omitted("null (no legacy decay) has no TOML form; an absent key is null")
    return search.recency_decay


def _provider(search: SearchConfig, index: IndexConfig) -> Any:
    if search.vectors:
        return Omitted("vectors on: the embedding provider is yours to set")
    return "none"  # OpenClaw's deliberate FTS-only mode


def _fts_tokenizer(search: SearchConfig, index: IndexConfig) -> Any:
    if index.tokenizer in ("unicode61", "trigram"):
        return index.tokenizer
    return Omitted(f"OpenClaw offers unicode61 or trigram: {index.tokenizer} does not carry over")


@dataclass(frozen=True)
class Setting:
    """One memlab setting and its counterparts (None: none)."""

    key: str
    grok: str | None
    openclaw: str | None
    note: str
    grok_value: Value | None = None  # default: the memlab value as it is
    openclaw_value: Value | None = None
    grok_fixed: Any = OMIT  # what Grok always does where it has no key (OMIT: not known)
    openclaw_fixed: Any = OMIT

    def value(self, search: SearchConfig, index: IndexConfig) -> Any:
        return _path(self.key)(search, index)


SETTINGS: tuple[Setting, ...] = (
    Setting("search.max_results", "max_results", "query.maxResults", "hits per search"),
    Setting(
        "search.min_score",
        "min_score",
        "query.minScore",
        "OpenClaw scores with its own merge (SPEC §9): one threshold passes other hits there",
    ),
    Setting(
        "search.vector_weight",
        "vector_weight",
        "query.hybrid.vectorWeight",
        "OpenClaw renormalises the two weights to sum 1 (SPEC §9)",
    ),
    Setting("search.text_weight", "text_weight", "query.hybrid.textWeight", "as vector_weight"),
    Setting(
        "search.temporal_decay",
        "temporal_decay",
        "query.hybrid.temporalDecay.enabled",
        "OpenClaw: on when a half-life applies (temporal_decay, else the legacy recency_decay)",
        openclaw_value=_openclaw_decay_on,
    ),
    Setting(
        "search.half_life_days",
        "half_life_days",
        "query.hybrid.temporalDecay.halfLifeDays",
        "null (no decay) is written inf in TOML; OpenClaw gets the half-life that applies, "
        "none when decay is off",
        grok_value=_half_life,
        openclaw_value=_openclaw_half_life,
    ),
    Setting(
        "search.recency_decay",
        "recency_decay",
        None,
        "the legacy decay (used only with temporal_decay off): OpenClaw has only the "
        "half-life, which carries it (−1 / log2 r)",
        grok_value=_recency,
    ),
    Setting("search.mmr.enabled", "mmr.enabled", "query.hybrid.mmr.enabled", "MMR on or off"),
    Setting("search.mmr.lambda", "mmr.lambda", "query.hybrid.mmr.lambda", "1 = relevance only"),
    Setting(
        "search.source_weights",
        "source_weights",
        None,
        "per-source multipliers (missing = 1.0); OpenClaw weighs every source alike",
        openclaw_fixed={},
    ),
    Setting(
        "search.candidate_multiplier",
        None,
        "query.hybrid.candidateMultiplier",
        "candidates gathered = max_results × this; c0 fixes it at 3",
        grok_fixed=3,
    ),
    Setting(
        "search.strategy",
        None,
        None,
        "the merge formula is each agent's own code: Grok's is 'grok' (c0), OpenClaw's "
        "'openclaw' (SPEC §9); settings tuned under another merge do not carry over",
        grok_fixed="grok",
        openclaw_fixed="openclaw",
    ),
    Setting(
        "search.evergreen_supplement",
        None,
        None,
        "c0's supplementary FTS query over evergreen memory (SPEC §4.1 step 4)",
        grok_fixed=True,
    ),
    Setting(
        "search.vectors",
        None,
        "provider",
        "vectors need an embedder (SPEC §6: none configured = FTS-only); off is OpenClaw's "
        "provider none",
        openclaw_value=_provider,
    ),
    Setting(
        "search.keywords",
        None,
        None,
        "how the query's keywords are read (c0: runs of Unicode alphanumerics and _)",
        grok_fixed="c0",
    ),
    Setting(
        "search.knn",
        None,
        None,
        "how vector candidates are found: vec0's KNN (c0) or an exact numpy scan with the "
        "same results",
        grok_fixed="vec0",
    ),
    Setting(
        "index.tokenizer",
        None,
        "store.fts.tokenizer",
        "the FTS5 tokenizer; c0 uses unicode61, OpenClaw offers unicode61 or trigram",
        openclaw_value=_fts_tokenizer,
        grok_fixed="unicode61",
    ),
    Setting(
        "index.chunking.max_bytes",
        "chunking.max_bytes",
        None,
        "memlab's chunker counts UTF-8 bytes; OpenClaw's chunking.tokens counts tokens "
        "(about 4 bytes each) with its own chunker",
    ),
    Setting(
        "index.chunking.overlap_chars",
        "chunking.overlap_chars",
        None,
        "characters; OpenClaw's chunking.overlap counts tokens",
    ),
    Setting(
        "index.chunking.mode",
        None,
        None,
        "memlab's chunking modes (c0, record, file)",
        grok_fixed="c0",
    ),
    Setting(
        "index.chunking.roles",
        None,
        None,
        "the speakers whose turns are indexed (empty: all)",
        grok_fixed=[],
    ),
    Setting(
        "index.max_file_bytes",
        None,
        None,
        "larger files are skipped (c0 has no limit)",
    ),
    Setting(
        "index.created_at_rule",
        None,
        None,
        "where a chunk's age starts: c0 at insertion, OpenClaw from a date in the file name",
        grok_fixed="insert",
        openclaw_fixed="filename-date",
    ),
)


@dataclass(frozen=True)
class Carried:
    """One setting's fate in one target."""

    setting: Setting
    value: Any  # memlab's value
    target_key: str | None
    target_value: Any  # an Omitted when the key is left out
    matches: bool | None  # no counterpart: does the agent's fixed behaviour match? None: unknown

    @property
    def written(self) -> bool:
        return self.target_key is not None and not isinstance(self.target_value, Omitted)


def carry(target: str, search: SearchConfig, index: IndexConfig) -> list[Carried]:
    """Every setting of ``SETTINGS`` for ``target`` ("grok" or "openclaw")."""
    out = []
    for s in SETTINGS:
        key = s.grok if target == "grok" else s.openclaw
        fn = s.grok_value if target == "grok" else s.openclaw_value
        fixed = s.grok_fixed if target == "grok" else s.openclaw_fixed
        value = s.value(search, index)
        if key is None:
            matches = None if fixed is OMIT else value == fixed
            out.append(Carried(s, value, None, OMIT, matches))
            continue
        out.append(Carried(s, value, key, (fn or _path(s.key))(search, index), None))
    return out


def not_carried(items: list[Carried]) -> list[Carried]:
    """The settings with no counterpart or left out, for the listing beside the file."""
    return [c for c in items if not c.written]


def nested(items: list[Carried]) -> dict[str, Any]:
    """The written keys as nested mappings (``a.b`` → ``{"a": {"b": …}}``)."""
    out: dict[str, Any] = {}
    for c in items:
        if not c.written:
            continue
        node = out
        *parents, leaf = (c.target_key or "").split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = c.target_value
    return out


def shown(value: Any) -> str:
    """A value as the listings print it."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {shown(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    return f"{value:g}" if isinstance(value, float) else str(value)


def flat_values(search: SearchConfig, index: IndexConfig) -> dict[str, Any]:
    """Every memlab value by dotted path (for checks that no setting is forgotten)."""
    return {
        **{f"search.{k}": v for k, v in flatten(to_dict(search)).items()},
        **{f"index.{k}": v for k, v in flatten(to_dict(index)).items()},
    }


def mapping_table() -> list[dict[str, str]]:
    """The table as rows (the docs show it): memlab setting, Grok key, OpenClaw key, note."""
    return [
        {
            "memlab": s.key,
            "Grok (SPEC §6)": s.grok or "—",
            "OpenClaw memorySearch": s.openclaw or "—",
            "note": s.note,
        }
        for s in SETTINGS
    ]


def mapping_markdown() -> str:
    """``mapping_table`` as a Markdown table."""
    rows = mapping_table()
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [f"`{r[h]}`" if h != "note" and r[h] != "—" else r[h] for h in head]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)
