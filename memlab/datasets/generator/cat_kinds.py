"""Single-fact categories built on component kinds: fact, paraphrase, cjk, evergreen-crowded.

* ``fact`` — a session note states a value; the query shares its words.
* ``paraphrase`` — the same shape, asked in other words (little more than the
  component's name in common): where vectors should help.
* ``cjk`` — a Chinese note and a Chinese query whose Chinese keywords occur
  inside longer runs of Chinese in the note: unicode61 indexes the run as one
  token and misses them, a trigram index finds them (tag ``trigram``).
* ``evergreen-crowded`` — the value is kept only in the workspace ``MEMORY.md``,
  while 12–20 session notes around the query's time repeat its words without
  stating the value.
"""

from __future__ import annotations

from collections.abc import Callable

from memlab.datasets.generator import prose
from memlab.datasets.generator.context import Ctx, query_time, repeat
from memlab.datasets.generator.draft import DAY, Query, Session, Target
from memlab.datasets.generator.kinds import Kind
from memlab.datasets.generator.kinds_service import SERVICE_KINDS
from memlab.datasets.generator.kinds_tooling import TOOLING_KINDS
from memlab.datasets.generator.values import Value
from memlab.datasets.generator.world import WORKSPACES, Workspace

KINDS: tuple[Kind, ...] = SERVICE_KINDS + TOOLING_KINDS
ZH_KINDS: tuple[Kind, ...] = tuple(k for k in KINDS if k.has_zh)
# Paraphrases keep only the component: kinds whose questions name a thing or a library
# (the thing is what is asked about) are not paraphrased.
PARA_KINDS: tuple[Kind, ...] = tuple(
    k for k in KINDS if not any("{thing}" in p or "{lib}" in p for p in k.paras)
)
CROWD_AFTER = 21 * DAY


def _kind_query(
    ctx: Ctx,
    category: str,
    ws: Workspace,
    kinds: tuple[Kind, ...],
    *,
    in_memory: bool = False,
    zh: bool = False,
    asked_after: float = 0.0,
) -> tuple[Query, str, Kind, Value] | None:
    pair = ctx.new_pair(ws, kinds)
    if pair is None:
        return None
    comp, kind = pair
    value = ctx.values.make(kind.key, ws, comp)
    slots = ctx.documented(ws.group) if in_memory else ctx.session_slots(ws.group)
    placed = ctx.slot_for(slots, asked_after)
    if placed is None:
        return None
    slot, gap = placed
    fields = value.fields(comp)
    rng = ctx.rng
    text = rng.choice(kind.zh_notes if zh else kind.notes).format(**fields)
    if in_memory:
        section = kind.mem_section
    elif zh:
        section = rng.choice(prose.ZH_SECTIONS)
    else:
        section = kind.section
    fact = ctx.put(slot, text, section, f"{category}:{len(ctx.queries)}", group=ws.group, comp=comp)
    asks = kind.zh_asks if zh else (kind.paras if category == "paraphrase" else kind.asks)
    tags = [f"kind-{kind.key}", "memory" if in_memory else "session"]
    if zh:
        tags += ["zh", "trigram"]
    query = Query(
        category,
        ws.group,
        rng.choice(asks).format(**fields),
        query_time(slot.at, gap),
        slot.at,
        targets=[Target(fact, 2)],
        tags=tuple(tags),
        answer=value.text,
        answer_terms=value.terms(comp),
    )
    ctx.queries.append(query)
    return query, comp, kind, value


def add_plain(ctx: Ctx, category: str, count: int) -> None:
    """``fact`` or ``paraphrase`` queries on session notes."""
    kinds = PARA_KINDS if category == "paraphrase" else KINDS
    repeat(count, lambda _: _kind_query(ctx, category, ctx.workspace(kinds), kinds) is not None)


def add_cjk(ctx: Ctx, count: int) -> None:
    chinese = [w for w in WORKSPACES if w.zh_share > 0]

    def one(_: int) -> bool:
        free = [w for w in chinese if ctx.free_pairs(w, ZH_KINDS)] or chinese
        ws = ctx.rng.choices(free, [w.zh_share for w in free])[0]
        return _kind_query(ctx, "cjk", ws, ZH_KINDS, zh=True) is not None

    repeat(count, one)


def add_evergreen_crowded(ctx: Ctx, count: int) -> None:

    def one(_: int) -> bool:
        ws = ctx.workspace(KINDS)
        made = _kind_query(
            ctx, "evergreen-crowded", ws, KINDS, in_memory=True, asked_after=crowded_from(ws)
        )
        if made is None:
            return False
        query, comp, kind, value = made
        fixed = value.fields(comp)
        crowd(ctx, query, kind.distractors, kind.section, lambda _: fixed)
        return True

    repeat(count, one)


def crowded_from(ws: Workspace) -> float:
    """The earliest time a crowded query is asked: three weeks of sessions before it."""
    return ws.first_session + CROWD_AFTER


def crowd(
    ctx: Ctx,
    query: Query,
    templates: tuple[str, ...],
    section: str,
    fields: Callable[[Session], dict[str, str]],
) -> None:
    """12–20 sessions repeat the query's words, half of them in the 10 days before it."""
    rng = ctx.rng
    before = [s for s in ctx.sessions[query.group] if s.slots[0].at < query.as_of]
    recent = [s for s in before if s.slots[0].at >= query.as_of - 10 * DAY]
    older = [s for s in before if s.slots[0].at < query.as_of - 10 * DAY]
    count = rng.randint(12, 20)
    chosen = rng.sample(recent, min(len(recent), count // 2))
    chosen += rng.sample(older, min(len(older), count - len(chosen)))
    for session in chosen:
        slot = rng.choice([s for s in session.slots if s.at < query.as_of])
        line = rng.choice(templates).format(**fields(session))
        slot.extra.append((section, ("- " + line,)))
