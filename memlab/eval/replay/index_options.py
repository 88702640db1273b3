"""Index options by the command line's names: ``tokenizer``, ``chunk_bytes``, ``chunk_overlap``,
``chunking`` (and ``roles``), and their form in a config file's ``index`` section.

The options refine a ``Memory`` (``Memory.refined``) the way ``--tokenizer``,
``--chunk-bytes`` … do. A config file (``--config``, a run file ``NAME=FILE.yaml``)
writes them with ``IndexConfig``'s keys::

    index:
      tokenizer: porter
      chunking: {max_bytes: 800, overlap_chars: 160, mode: c0, roles: user}

``index_section`` and ``options_of_section`` convert between the two forms;
``index_options_of`` finds the options that turn a dataset's memory into another.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memlab.config import CHUNKING_MODES, TOKENIZERS
from memlab.errors import ConfigError, unknown_name
from memlab.eval.replay.memory import Memory

INDEX_OPTIONS = ("tokenizer", "chunk_bytes", "chunk_overlap", "chunking")


def check_index_value(key: str, value: Any) -> None:
    """A clear error for an index option's bad value (the key is one of ``INDEX_AXES``)."""
    if key == "tokenizer" and value not in TOKENIZERS:
        raise ConfigError(f"tokenizer: {unknown_name('tokenizer', str(value), TOKENIZERS)}")
    if key == "chunking" and value not in CHUNKING_MODES:
        raise ConfigError(f"chunking: {unknown_name('chunking mode', str(value), CHUNKING_MODES)}")
    if key in ("chunk_bytes", "chunk_overlap"):
        least = 1 if key == "chunk_bytes" else 0
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ConfigError(f"{key} must be a whole number >= {least}, got {value!r}")


def index_options_of(memory: Memory, default: Memory) -> dict[str, Any]:
    """The index options that turn ``default`` (a dataset's memory) into ``memory``, in
    ``INDEX_AXES`` names plus ``roles``; ConfigError if no such options do."""
    out: dict[str, Any] = {}
    a, b = default.index, memory.index
    if a.tokenizer != b.tokenizer or (default.by_tag and not memory.by_tag):
        out["tokenizer"] = b.tokenizer
    ca, cb = a.chunking, b.chunking
    pairs = [
        ("chunk_bytes", ca.max_bytes, cb.max_bytes),
        ("chunk_overlap", ca.overlap_chars, cb.overlap_chars),
        ("chunking", ca.mode, cb.mode),
    ]
    out.update({name: new for name, old, new in pairs if old != new})
    if ca.roles != cb.roles:
        out["roles"] = ",".join(cb.roles) or "all"
    refined = default.refined(**out)
    if (refined.index, refined.by_tag) != (memory.index, memory.by_tag):
        raise ConfigError(
            "this memory's index is not the dataset's refined by index options "
            f"({memory.label()}); export it from a sweep of that dataset"
        )
    return out


def index_section(options: Mapping[str, Any]) -> dict[str, Any]:
    """Index options as a config file's ``index`` section (``IndexConfig``'s keys)."""
    section: dict[str, Any] = {}
    if "tokenizer" in options:
        section["tokenizer"] = options["tokenizer"]
    names = {"chunk_bytes": "max_bytes", "chunk_overlap": "overlap_chars", "chunking": "mode"}
    chunking = {names[k]: v for k, v in options.items() if k in names}
    if "roles" in options:
        chunking["roles"] = options["roles"]
    if chunking:
        section["chunking"] = chunking
    return section


def options_of_section(section: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A config file's ``index`` section back as index options (``index_section``'s
    inverse); unknown keys raise ConfigError naming the file."""
    if not isinstance(section, Mapping):
        raise ConfigError(f"{where}: 'index' must be a mapping of index settings")
    known = ("tokenizer", "chunking")
    bad = [k for k in section if k not in known]
    if bad:
        raise ConfigError(f"{where}: index: {unknown_name('setting', str(bad[0]), known)}")
    out: dict[str, Any] = {}
    if "tokenizer" in section:
        out["tokenizer"] = section["tokenizer"]
    chunking = section.get("chunking") or {}
    if not isinstance(chunking, Mapping):
        raise ConfigError(f"{where}: index.chunking must be a mapping (max_bytes, …)")
    names = {"max_bytes": "chunk_bytes", "overlap_chars": "chunk_overlap", "mode": "chunking"}
    for key, value in chunking.items():
        if key == "roles":
            out["roles"] = value
            continue
        if key not in names:
            raise ConfigError(
                f"{where}: index.chunking: " + unknown_name("setting", str(key), [*names, "roles"])
            )
        out[names[key]] = value
    for key, value in out.items():
        if key != "roles":
            check_index_value(key, value)
    return out
