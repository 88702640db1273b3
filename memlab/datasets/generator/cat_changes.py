"""Values that change over time: ``newest-wins`` (knowledge updates) and ``temporal``.

* ``newest-wins`` — 2 or 3 versions of a value, written in time order in
  distinct sessions; some first versions sit in ``MEMORY.md`` (tag
  ``stale-evergreen``: the stale version never decays). The newest is the answer
  (grade 2); older ones are judged 0 and listed in ``stale_targets``.
* ``temporal`` — three changes of a value; the query asks what changed at a
  time named relative to its own time ("last week", "on Tuesday", "in March").
  Exactly one change falls in the window the phrase names (checked); it need not
  be the newest. The others are judged 0.

Every version records only its new value, so each value sits in one line.
"""

from __future__ import annotations

from collections.abc import Callable

from memlab.datasets.generator.cat_kinds import KINDS
from memlab.datasets.generator.context import Ctx, draw_gap, query_time, repeat
from memlab.datasets.generator.draft import DAY, Fact, Query, Slot, Target
from memlab.datasets.generator.kinds import Kind
from memlab.datasets.generator.phrases import time_phrase
from memlab.datasets.generator.values import Value
from memlab.datasets.generator.world import END, Workspace

SPREAD = 90 * DAY  # the longest time between two versions
VERSION_TRIES = 500  # gap draws before a change's versions are given up


def value_family(ctx: Ctx, kind: Kind, ws: Workspace, comp: str, n: int) -> list[Value]:
    """``n`` distinct values of one attribute (same ``thing`` / ``lib``)."""
    first = ctx.values.make(kind.key, ws, comp)
    out = [first]
    while len(out) < n:
        v = ctx.values.make(kind.key, ws, comp)
        if all(v.text != o.text for o in out):
            out.append(Value(v.text, v.unique, first.extra))
    return out


def _distinct_session(taken: list[Slot]) -> Callable[[Slot], bool]:
    """A filter rejecting the slots of sessions already taken."""
    sessions = {id(s.session) for s in taken if s.session is not None}
    return lambda s: s.session is not None and id(s.session) in sessions


def _versions(
    ctx: Ctx, ws: Workspace, n: int, evergreen_first: bool
) -> tuple[list[Slot], float] | None:
    """Slots of ``n`` versions in time order (5–90 days apart) and the query's gap (None
    when ``VERSION_TRIES`` draws find none, e.g. a ``MEMORY.md`` with no room left)."""
    rng = ctx.rng
    sessions = ctx.session_slots(ws.group)
    # With the first version in MEMORY.md the newest follows it within reach (no gap bias).
    reach = ctx.documented(ws.group)[0].at + (n - 1) * SPREAD if evergreen_first else END
    for _ in range(VERSION_TRIES):
        gap = draw_gap(rng)
        latest = min(END - gap, reach)
        newest = ctx.pick_slot(sessions, latest=latest, earliest=ws.first_session + 30 * DAY)
        if newest is None:
            continue
        chosen = [newest]
        for i in range(n - 1):
            nxt = chosen[0]
            pool = ctx.documented(ws.group) if evergreen_first and i == n - 2 else sessions
            avoid = _distinct_session(chosen)
            slot = ctx.pick_slot(
                pool,
                latest=nxt.at - 5 * DAY,
                earliest=nxt.at - SPREAD,
                avoid=avoid,
            )
            if slot is None:
                break
            chosen.insert(0, slot)
        if len(chosen) == n:
            return chosen, gap
    return None


def add_updates(ctx: Ctx, count: int) -> None:
    repeat(count, lambda i: _update(ctx, i))


def _update(ctx: Ctx, i: int) -> bool:
    rng = ctx.rng
    ws = ctx.workspace(KINDS)
    pair = ctx.new_pair(ws, KINDS)
    if pair is None:
        return False
    comp, kind = pair
    n = 3 if rng.random() < 0.35 else 2
    evergreen_first = rng.random() < 0.3
    values = value_family(ctx, kind, ws, comp, n)
    placed = _versions(ctx, ws, n, evergreen_first)
    if placed is None:
        return False
    slots, gap = placed
    facts: list[Fact] = []
    for j, (slot, value) in enumerate(zip(slots, values, strict=True)):
        fields = value.fields(comp)
        in_memory = slot.session is None
        text = rng.choice(kind.notes if j == 0 else kind.changes).format(**fields)
        section = kind.mem_section if in_memory else ("Changes" if j else kind.section)
        change = f"{comp}/{kind.key}"
        facts.append(
            ctx.put(slot, text, section, f"upd:{i}", group=ws.group, comp=comp, change_of=change)
        )
    tags = [f"kind-{kind.key}", f"versions-{n}"]
    if evergreen_first:
        tags.append("stale-evergreen")
    newest = values[-1]
    ctx.queries.append(
        Query(
            "newest-wins",
            ws.group,
            rng.choice(kind.asks).format(**newest.fields(comp)),
            query_time(slots[-1].at, gap),
            slots[-1].at,
            targets=[Target(facts[-1], 2), *(Target(f, 0) for f in facts[:-1])],
            stale=facts[:-1],
            tags=tuple(tags),
            answer=newest.text,
            answer_terms=newest.terms(comp),
        )
    )
    return True


def _others(
    ctx: Ctx, ws: Workspace, target: Slot, window: tuple[float, float], as_of: float
) -> list[Slot]:
    """Two more change slots before the query, outside the window (with a 2-day margin)."""
    lo, hi = window[0] - 2 * DAY, window[1] + 2 * DAY
    chosen = [target]

    def avoid(s: Slot) -> bool:
        near = any(s.session is x.session or abs(s.at - x.at) < 5 * DAY for x in chosen)
        return lo <= s.at <= hi or near

    for _ in range(2):
        slot = ctx.pick_slot(ctx.session_slots(ws.group), latest=as_of - 1 * DAY, avoid=avoid)
        if slot is not None:
            chosen.append(slot)
    return sorted(chosen, key=lambda s: s.at)


def add_temporal(ctx: Ctx, count: int) -> None:
    repeat(count, lambda made: _temporal(ctx, made))


def _temporal(ctx: Ctx, made: int) -> bool:
    rng = ctx.rng
    ws = ctx.workspace(KINDS)
    gap = draw_gap(rng)
    target = ctx.pick_slot(ctx.session_slots(ws.group), latest=END - gap)
    if target is None:
        return False
    as_of = query_time(target.at, gap)
    named = time_phrase(rng, target.at, as_of)
    if named is None:
        return False
    phrase, phrase_kind, window = named
    slots = _others(ctx, ws, target, window, as_of)
    if len(slots) < 2:
        return False
    pair = ctx.new_pair(ws, KINDS)
    if pair is None:
        return False
    comp, kind = pair
    values = value_family(ctx, kind, ws, comp, len(slots))
    facts = []
    for slot, value in zip(slots, values, strict=True):
        text = rng.choice(kind.changes).format(**value.fields(comp))
        facts.append(
            ctx.put(
                slot,
                text,
                "Changes",
                f"tmp:{made}",
                group=ws.group,
                comp=comp,
                change_of=f"{comp}/{kind.key}",
            )
        )
    hit = slots.index(target)
    value = values[hit]
    ctx.queries.append(
        Query(
            "temporal",
            ws.group,
            rng.choice(kind.when_asks).format(when=phrase, **value.fields(comp)),
            as_of,
            target.at,
            targets=[Target(f, 2 if j == hit else 0) for j, f in enumerate(facts)],
            tags=(f"kind-{kind.key}", f"when-{phrase_kind}"),
            answer=value.text,
            answer_terms=value.terms(comp),
            window=window,
            family=tuple(facts),
        )
    )
    return True
