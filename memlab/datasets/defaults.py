"""The manifest's evaluation defaults: ``index`` (formats 1 and 2) and ``timeline`` (2).

``index``: ``{"tokenizer": "unicode61" | "porter" | "trigram", "max_bytes": int,
"overlap_chars": int, "chunking": "c0" | "record" | "file", "roles": [str],
"by_tag": {TAG: {...}}}`` — the index options the dataset is meant to be
evaluated with (the CLI's ``--tokenizer``, ``--chunk-bytes``, ``--chunk-overlap``,
``--chunking``, ``--roles`` and the Python API override them; ``chunking`` and
``roles`` are ``ChunkingConfig.mode`` / ``.roles``, ``memlab.store.chunking``).
``by_tag`` gives the queries carrying a tag their own index options (any of the
others, e.g. ``{"trigram": {"tokenizer": "trigram"}}`` for Chinese queries); an
explicit tokenizer applies to every query instead (``memlab.eval.replay.memory``).
``timeline``:
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

OPTION_KEYS = ("tokenizer", "max_bytes", "overlap_chars", "chunking", "roles")
INDEX_KEYS = (*OPTION_KEYS, "by_tag")
TIMELINE_KEYS = ("dream",)


def index_problems(
    index: Mapping[str, Any], keys: tuple[str, ...] = INDEX_KEYS
) -> list[tuple[str, str]]:
    """(what, fix) for every problem of a manifest ``index`` entry (or of one tag's options)."""
    if not isinstance(index, Mapping):
        return [("index options must be an object", 'write e.g. {"tokenizer": "trigram"}')]
    out = [
        (f"unknown index option '{k}'", did_you_mean(k, keys) or f"use {keys}")
        for k in index
        if k not in keys
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
    if "by_tag" in keys:
        out += by_tag_problems(index.get("by_tag", {}))
    return out


def by_tag_problems(by_tag: Any) -> list[tuple[str, str]]:
    """(what, fix) for every problem of ``index.by_tag``: ``{TAG: {option: value}}``."""
    if not isinstance(by_tag, Mapping):
        return [
            ("index by_tag must be an object", 'write e.g. {"trigram": {"tokenizer": "trigram"}}')
        ]
    out = []
    for tag, options in by_tag.items():
        for what, fix in index_problems(options, OPTION_KEYS):
            out.append((f"by_tag '{tag}': {what}", fix))
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
