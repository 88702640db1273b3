"""Assemble the dataset in memory: timeline, categories, filler, rendering, ids, checks."""

from __future__ import annotations

import random
from collections import Counter

from memlab.datasets.generator import (
    cat_abstention,
    cat_changes,
    cat_failures,
    cat_kinds,
    cat_multi,
    cat_prefs,
)
from memlab.datasets.generator.context import Ctx
from memlab.datasets.generator.draft import Generated, MemoryFile, Write
from memlab.datasets.generator.filler import add_filler, order_entries
from memlab.datasets.generator.label_checks import check_labels
from memlab.datasets.generator.memory_text import GLOBAL_INTRO, GLOBAL_TITLE, add_memory_text
from memlab.datasets.generator.render import memory_writes, session_writes
from memlab.datasets.generator.schedule import build_memory_file, build_sessions, session_title
from memlab.datasets.generator.values import Values
from memlab.datasets.generator.world import END, WORKSPACES

# Category -> query id prefix, in the order queries are listed.
CATEGORIES = {
    "fact": "fact",
    "paraphrase": "para",
    "newest-wins": "new",
    "temporal": "when",
    "multi-note": "multi",
    "preference": "pref",
    "evergreen-crowded": "ever",
    "duplicates": "dup",
    "cjk": "cjk",
    "abstention": "abs",
}
NEAR_MISSES = 94
RESERVED = 30  # (component, kind) pairs per workspace kept free for near-misses


def _categories(ctx: Ctx) -> None:
    cat_prefs.add_preferences(ctx, crowded=25, appended=3)
    cat_kinds.add_cjk(ctx, 110)
    cat_kinds.add_evergreen_crowded(ctx, 173)
    cat_changes.add_updates(ctx, 149)
    cat_changes.add_temporal(ctx, 116)
    cat_multi.add_kind_pairs(ctx, 66)
    cat_failures.add_cause_fix(ctx, 50)
    cat_failures.add_duplicates(ctx, 83)
    cat_failures.add_incidents(ctx, 66)
    cat_kinds.add_plain(ctx, "paraphrase", 149)
    cat_kinds.add_plain(ctx, "fact", 264)


def _render(ctx: Ctx, rng: random.Random) -> list[Write]:
    writes: list[Write] = []
    for memory in ctx.memory.values():
        writes += memory_writes(memory, [order_entries(rng, s) for s in memory.slots])
    for ws in WORKSPACES:
        for session in ctx.sessions[ws.group]:
            entries = [order_entries(rng, s) for s in session.slots]
            writes += session_writes(
                session, ctx.path_of(session.slots[0]), session_title(session), entries
            )
    writes.sort(key=lambda w: (w.at, w.path))
    return writes


def _lines_by_group(gen: Generated) -> dict[str, list[str]]:
    lines: dict[str, list[str]] = {w.group: [] for w in WORKSPACES}
    for path, text in gen.final_texts().items():
        for group in gen.groups_of(path):
            lines[group] += text.split("\n")
    return lines


def _number(gen: Generated) -> None:
    """Fact ids in write order; query ids per category in the order made."""
    gen.facts.sort(key=lambda f: (f.at, f.path, f.text))
    for i, fact in enumerate(gen.facts, start=1):
        fact.id = f"f{i:04d}"
    seen: Counter[str] = Counter()
    ordered = sorted(gen.queries, key=lambda q: list(CATEGORIES).index(q.category))
    for query in ordered:
        seen[query.category] += 1
        query.qid = f"{CATEGORIES[query.category]}-{seen[query.category]:03d}"
    gen.queries = ordered


def build(seed: int) -> Generated:
    rng = random.Random(seed)
    sessions = {ws.group: build_sessions(rng, ws) for ws in WORKSPACES}
    memory: dict[str | None, MemoryFile] = {
        None: build_memory_file(rng, None, GLOBAL_TITLE, GLOBAL_INTRO)
    }
    for ws in WORKSPACES:
        memory[ws.group] = build_memory_file(rng, ws, ws.title, ws.intro)
    ctx = Ctx(rng, Values(rng), sessions, memory)
    reserved = cat_abstention.reserve_pairs(rng, ctx.used_pairs, RESERVED)
    _categories(ctx)
    add_filler(ctx)
    add_memory_text(memory)
    gen = Generated(seed, END, writes=_render(ctx, rng))
    gen.facts = [
        n.fact
        for file_slots in [m.slots for m in memory.values()]
        + [s.slots for v in sessions.values() for s in v]
        for slot in file_slots
        for n in slot.notes
    ]
    gen.queries = list(ctx.queries) + cat_abstention.entity_queries(rng)
    gen.queries += cat_abstention.near_miss_queries(
        rng, NEAR_MISSES, reserved, _lines_by_group(gen)
    )
    _number(gen)
    check_labels(gen)
    return gen
