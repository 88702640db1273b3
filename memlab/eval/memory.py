"""What shapes the memory an evaluation searches: index options and Dream on the timeline.

A ``Memory`` is everything that changes which chunks exist at a query's time
(not how they are ranked): the ``IndexConfig`` (tokenizer, chunk size and
overlap, chunking mode and indexed roles) and the Dream settings applied at each
session end of the replay (``None``: Dream off). Runs that share a ``Memory``
share one replay; runs whose memory differs get their own. ``memory_for``
applies the precedence: explicit options, then the dataset manifest's ``index``
/ ``timeline``, then c0's defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from memlab.config import ChunkingConfig, DreamConfig, IndexConfig, parse_roles, to_dict
from memlab.datasets import Dataset


@dataclass(frozen=True)
class Memory:
    """Index options plus Dream on the timeline (``dream`` None = off)."""

    index: IndexConfig = field(default_factory=IndexConfig)
    dream: DreamConfig | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": to_dict(self.index),
            "dream": None if self.dream is None else to_dict(self.dream),
        }

    def label(self) -> str:
        """A short description: ``unicode61 1600/320, Dream c0 gates 4 h / 3 sessions``
        (``unicode61 one chunk per record, roles user, …`` in memlab's chunking modes)."""
        c = self.index.chunking
        size = f"{c.max_bytes}/{c.overlap_chars}"
        text = f"{self.index.tokenizer} " + (size if c.mode == "c0" else f"one chunk per {c.mode}")
        if c.roles:
            text += f", roles {','.join(c.roles)}"
        if self.dream is None:
            return text + ", Dream off"
        d = self.dream
        return (
            f"{text}, Dream {d.min_hours:g} h / {d.min_sessions} sessions, "
            f"MEMORY.md as '{d.memory_source}'"
        )

    def with_dream(self, **changes: Any) -> Memory:
        """The same memory with Dream on and some of its settings changed."""
        return replace(self, dream=replace(self.dream or DreamConfig(), **changes))


def memory_for(
    dataset: Dataset,
    *,
    tokenizer: str | None = None,
    chunk_bytes: int | None = None,
    chunk_overlap: int | None = None,
    chunking: str | None = None,
    roles: str | tuple[str, ...] | None = None,
    index: IndexConfig | None = None,
    dream: bool | None = None,
    dream_config: DreamConfig | None = None,
) -> Memory:
    """The memory to evaluate ``dataset`` on: explicit options, else the manifest's defaults.

    ``chunking`` is the chunking mode (``c0``, ``record``, ``file``) and ``roles`` the
    indexed roles (``"user"``, ``("user", "assistant")``, ``"all"``)
    (``ChunkingConfig``).

    ``index`` replaces the whole index configuration (the other index options
    then refine it); ``dream`` None follows the manifest's ``timeline.dream``;
    ``dream_config`` (default: c0's) gives the gates and the memory source.
    """
    defaults = dataset.index
    base = index or IndexConfig(
        tokenizer=str(defaults.get("tokenizer", IndexConfig().tokenizer)),
        chunking=ChunkingConfig(
            int(defaults.get("max_bytes", ChunkingConfig().max_bytes)),
            int(defaults.get("overlap_chars", ChunkingConfig().overlap_chars)),
            str(defaults.get("chunking", ChunkingConfig().mode)),
            tuple(defaults.get("roles", ())),
        ),
    )
    c = base.chunking
    sizes = ChunkingConfig(
        chunk_bytes if chunk_bytes is not None else c.max_bytes,
        chunk_overlap if chunk_overlap is not None else c.overlap_chars,
        chunking if chunking is not None else c.mode,
        parse_roles(roles) if roles is not None else c.roles,
    )
    config = replace(base, tokenizer=tokenizer or base.tokenizer, chunking=sizes)
    on = dataset.dream_default if dream is None else dream
    return Memory(config, (dream_config or DreamConfig()) if on else None)
