"""What shapes the memory an evaluation searches: index options and Dream on the timeline.

A ``Memory`` is everything that changes which chunks exist at a query's time
(not how they are ranked): the ``IndexConfig`` (tokenizer, chunk size and
overlap, chunking mode and indexed roles) and the Dream settings applied at each
session end of the replay (``None``: Dream off). Runs that share a ``Memory``
share one replay; runs whose memory differs get their own. ``memory_for``
applies the precedence: explicit options, then the dataset manifest's ``index``
/ ``timeline``, then c0's defaults.

Per-tag index options (manifest ``index.by_tag``, e.g. ``{"trigram":
{"tokenizer": "trigram"}}``): the queries carrying such a tag are gathered
from a replay on that index, the others from the default one (``for_query``,
``split``); one memory, several replays. An explicit tokenizer (or a whole
``index``) applies to every query and drops them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from memlab.config import ChunkingConfig, DreamConfig, IndexConfig, parse_roles, to_dict
from memlab.datasets import Dataset, Query


@dataclass(frozen=True)
class Memory:
    """Index options plus Dream on the timeline (``dream`` None = off); ``by_tag``: the
    index of the queries carrying a tag (the first tag listed that a query has wins)."""

    index: IndexConfig = field(default_factory=IndexConfig)
    dream: DreamConfig | None = None
    by_tag: tuple[tuple[str, IndexConfig], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": to_dict(self.index),
            "dream": None if self.dream is None else to_dict(self.dream),
        }
        if self.by_tag:  # absent otherwise: the replay cache keys of one index stay as they were
            out["by_tag"] = {tag: to_dict(index) for tag, index in self.by_tag}
        return out

    def for_query(self, query: Query) -> Memory:
        """The one-index memory ``query`` is evaluated on."""
        index = next((ix for tag, ix in self.by_tag if tag in query.tags), self.index)
        return Memory(index, self.dream)

    def split(self, queries: Iterable[Query]) -> dict[Memory, list[Query]]:
        """Queries by the one-index memory they are evaluated on (the default one first)."""
        out: dict[Memory, list[Query]] = {Memory(self.index, self.dream): []}
        for q in queries:
            out.setdefault(self.for_query(q), []).append(q)
        return {m: qs for m, qs in out.items() if qs}

    def label(self) -> str:
        """A short description: ``unicode61 1600/320 (tag 'trigram': trigram 1600/320),
        Dream 4 h / 3 sessions, MEMORY.md as 'dream'`` (``unicode61 one chunk per
        record, roles user, …`` in memlab's chunking modes)."""
        text = _index_label(self.index)
        if self.by_tag:
            text += " (" + "; ".join(f"tag '{t}': {_index_label(ix)}" for t, ix in self.by_tag)
            text += ")"
        if self.dream is None:
            return text + ", Dream off"
        d = self.dream
        return (
            f"{text}, Dream {d.min_hours:g} h / {d.min_sessions} sessions, "
            f"MEMORY.md as '{d.memory_source}'"
        )

    def refined(
        self,
        *,
        tokenizer: str | None = None,
        chunk_bytes: int | None = None,
        chunk_overlap: int | None = None,
        chunking: str | None = None,
        roles: str | tuple[str, ...] | None = None,
    ) -> Memory:
        """This memory with explicit index options applied (None: unchanged), the rule of
        ``--tokenizer``, ``--chunk-bytes`` …: the sizes, mode and roles refine every index
        (the per-tag ones too); a tokenizer applies to every query and drops the per-tag
        indexes."""

        def explicit(ix: IndexConfig) -> IndexConfig:
            c = ix.chunking
            sizes = ChunkingConfig(
                chunk_bytes if chunk_bytes is not None else c.max_bytes,
                chunk_overlap if chunk_overlap is not None else c.overlap_chars,
                chunking if chunking is not None else c.mode,
                parse_roles(roles) if roles is not None else c.roles,
            )
            return replace(ix, tokenizer=tokenizer or ix.tokenizer, chunking=sizes)

        by_tag = () if tokenizer else tuple((t, explicit(ix)) for t, ix in self.by_tag)
        return Memory(explicit(self.index), self.dream, by_tag)

    def with_dream(self, **changes: Any) -> Memory:
        """The same memory with Dream on and some of its settings changed."""
        return replace(self, dream=replace(self.dream or DreamConfig(), **changes))


def _index_label(index: IndexConfig) -> str:
    c = index.chunking
    size = f"{c.max_bytes}/{c.overlap_chars}"
    text = f"{index.tokenizer} " + (size if c.mode == "c0" else f"one chunk per {c.mode}")
    return text + (f", roles {','.join(c.roles)}" if c.roles else "")


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
    ``dream_config`` (default: c0's) gives the gates and the memory source. The
    manifest's per-tag options (``index.by_tag``) refine the manifest's index for
    their queries, and the explicit options apply on top of them; an explicit
    ``tokenizer`` or ``index`` drops them (every query then uses that index).
    """
    defaults = dataset.index
    base = index or _refined(IndexConfig(), defaults)
    by_tag: tuple[tuple[str, IndexConfig], ...] = ()
    if index is None:
        tags = defaults.get("by_tag") or {}
        by_tag = tuple((str(t), _refined(base, opts)) for t, opts in tags.items())
    on = dataset.dream_default if dream is None else dream
    plain = Memory(base, (dream_config or DreamConfig()) if on else None, by_tag)
    return plain.refined(
        tokenizer=tokenizer,
        chunk_bytes=chunk_bytes,
        chunk_overlap=chunk_overlap,
        chunking=chunking,
        roles=roles,
    )


def _refined(index: IndexConfig, options: Mapping[str, Any]) -> IndexConfig:
    """``index`` with the manifest-style options given (``tokenizer``, ``max_bytes``,
    ``overlap_chars``, ``chunking``, ``roles``)."""
    c = index.chunking
    chunking = ChunkingConfig(
        int(options.get("max_bytes", c.max_bytes)),
        int(options.get("overlap_chars", c.overlap_chars)),
        str(options.get("chunking", c.mode)),
        tuple(options.get("roles", c.roles)),
    )
    return replace(
        index, tokenizer=str(options.get("tokenizer", index.tokenizer)), chunking=chunking
    )
