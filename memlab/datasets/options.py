"""The manifest's evaluation defaults: ``index`` (formats 1 and 2) and ``timeline`` (2).

``index``: ``{"tokenizer": "unicode61" | "porter" | "trigram", "max_bytes": int,
"overlap_chars": int, "chunking": "c0" | "record" | "file", "roles": [str]}`` —
the index options the dataset is meant to be evaluated with (the CLI's
``--tokenizer``, ``--chunk-bytes``, ``--chunk-overlap``, ``--chunking``,
``--roles`` and the Python API override them; ``chunking`` and ``roles`` are
``ChunkingConfig.mode`` / ``.roles``, ``memlab.store.chunking``). ``timeline``:
``{"dream": true | false}`` — whether session ends run Dream during replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memlab.config import CHUNKING_MODES, TOKENIZERS, parse_roles
from memlab.datasets.model import MANIFEST
from memlab.datasets.problems import ValidationReport
from memlab.datasets.reader import RawDataset
from memlab.errors import ConfigError, did_you_mean

INDEX_KEYS = ("tokenizer", "max_bytes", "overlap_chars", "chunking", "roles")
TIMELINE_KEYS = ("dream",)


def index_problems(index: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(what, fix) for every problem of a manifest ``index`` entry."""
    out = [
        (f"unknown index option '{k}'", did_you_mean(k, INDEX_KEYS) or f"use {INDEX_KEYS}")
        for k in index
        if k not in INDEX_KEYS
    ]
    tokenizer = index.get("tokenizer", TOKENIZERS[0])
    if tokenizer not in TOKENIZERS:
        out.append((f"index tokenizer {tokenizer!r} is unknown", f"use one of {TOKENIZERS}"))
    for key, least in (("max_bytes", 1), ("overlap_chars", 0)):
        value = index.get(key, least)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            out.append((f"index {key} = {value!r} is invalid", f"make it an integer >= {least}"))
    if index.get("chunking", CHUNKING_MODES[0]) not in CHUNKING_MODES:
        what = f"index chunking {index.get('chunking')!r} is unknown"
        out.append((what, f"use one of {CHUNKING_MODES}"))
    roles = index.get("roles", [])
    try:
        if not isinstance(roles, list):
            raise ConfigError("not a list")
        parse_roles(roles)
    except ConfigError:
        out.append((f"index roles = {roles!r} is invalid", 'write e.g. ["user"] (or ["all"])'))
    return out


def timeline_problems(timeline: Mapping[str, Any]) -> list[tuple[str, str]]:
    out = [
        (f"unknown timeline option '{k}'", did_you_mean(k, TIMELINE_KEYS) or "use 'dream'")
        for k in timeline
        if k not in TIMELINE_KEYS
    ]
    if not isinstance(timeline.get("dream", False), bool):
        out.append(("timeline dream must be true or false", 'write "dream": true'))
    return out


def check_options(raw: RawDataset, report: ValidationReport) -> None:
    problems = index_problems(raw.manifest.get("index", {}))
    problems += timeline_problems(raw.manifest.get("timeline", {}))
    for what, fix in problems:
        report.add("bad_fields", MANIFEST, None, what, fix)
