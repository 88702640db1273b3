"""The manifest's evaluation defaults (format 2): ``index`` and ``timeline``.

``index``: ``{"tokenizer": "unicode61" | "porter" | "trigram", "max_bytes": int,
"overlap_chars": int}`` — the index options the dataset is meant to be
evaluated with (the CLI's ``--tokenizer``, ``--chunk-bytes``,
``--chunk-overlap`` and the Python API override them). ``timeline``:
``{"dream": true | false}`` — whether session ends run Dream during replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memlab.config import TOKENIZERS
from memlab.datasets.model import MANIFEST
from memlab.datasets.problems import ValidationReport
from memlab.datasets.reader import RawDataset
from memlab.errors import did_you_mean

INDEX_KEYS = ("tokenizer", "max_bytes", "overlap_chars")
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
