"""Index options as grid axes: ``tokenizer``, ``chunk_bytes``, ``chunk_overlap``, ``chunking``.

A grid may vary the index as well as the search::

    tokenizer: [unicode61, porter]
    chunk_bytes: [800, 1600]
    half_life_days: [7, 30, null]

These four keys are the command line's index options (``--tokenizer``,
``--chunk-bytes``, ``--chunk-overlap``, ``--chunking``) and refine the sweep's
memory the same way (``Memory.refined``: a tokenizer applies to every query and
drops the dataset's per-tag indexes; sizes and mode refine every index). Each
distinct index is replayed once (and cached like any replay); every search
configuration of the grid is then rescored on it, exactly (the sweep equals
``search()`` on each index).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from memlab.errors import ConfigError, unknown_name
from memlab.eval.replay.index_options import INDEX_OPTIONS, check_index_value
from memlab.eval.replay.memory import Memory

INDEX_AXES = INDEX_OPTIONS


def split_overrides(overrides: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(search overrides, index options) of one point's overrides."""
    search = {k: v for k, v in overrides.items() if k not in INDEX_AXES}
    index = {k: v for k, v in overrides.items() if k in INDEX_AXES}
    return search, index


def index_memory(memory: Memory, options: Mapping[str, Any]) -> Memory:
    """``memory`` with a point's index options applied (``Memory.refined``)."""
    for key, value in options.items():
        if key not in INDEX_AXES:
            raise ConfigError(unknown_name("index option", key, INDEX_AXES))
        check_index_value(key, value)
    return memory.refined(**dict(options))


def index_key(options: Mapping[str, Any]) -> str:
    """A stable text key of index options ("" for none: the sweep's own memory)."""
    return json.dumps(dict(sorted(options.items())), sort_keys=True) if options else ""
