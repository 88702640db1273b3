"""``multi-note`` queries on two attributes of one component, written in two places.

The two notes sit in different sessions up to six weeks apart (a quarter of
the first ones in ``MEMORY.md``); the query asks for both, so it needs two
chunks: nugget 1 and nugget 2, each grade 2 (measure: recall of all nuggets).
Cause/fix pairs are the other half of the category (``cat_failures``).
"""

from __future__ import annotations

from memlab.datasets.generator.cat_kinds import KINDS
from memlab.datasets.generator.context import Ctx, draw_gap, query_time, repeat
from memlab.datasets.generator.draft import DAY, Query, Target
from memlab.datasets.generator.world import END

APART = 42 * DAY  # the longest time between the two notes
ASKS = (
    "what are the {n1} and the {n2} of {comp}",
    "{comp} {n1} and {n2}",
    "I need both the {n1} and the {n2} for {comp}",
    "tell me the {n1} of {comp} and also its {n2}",
)


def add_kind_pairs(ctx: Ctx, count: int) -> None:
    repeat(count, lambda i: _kind_pair(ctx, i))


def _kind_pair(ctx: Ctx, i: int) -> bool:
    rng = ctx.rng
    ws = ctx.workspace(KINDS)
    comp = rng.choice(ws.comps)
    in_memory = rng.random() < 0.5
    pool = ctx.documented(ws.group) if in_memory else ctx.session_slots(ws.group)
    gap = draw_gap(rng)
    reach = pool[0].at + APART if in_memory else END  # the second note follows within reach
    second = ctx.pick_slot(ctx.session_slots(ws.group), latest=min(END - gap, reach))
    if second is None:
        return False
    first = ctx.pick_slot(
        pool,
        latest=second.at - 1 * DAY,
        earliest=second.at - APART,
        avoid=lambda s: s.session is not None and s.session is second.session,
    )
    p1 = ctx.new_pair(ws, KINDS, comp) if first is not None else None
    p2 = ctx.new_pair(ws, KINDS, comp) if p1 is not None else None
    if first is None or p1 is None or p2 is None:
        return False
    facts, terms = [], []
    for slot, (_, kind), nugget in ((first, p1, 1), (second, p2, 2)):
        value = ctx.values.make(kind.key, ws, comp)
        section = kind.mem_section if slot.session is None else kind.section
        text = rng.choice(kind.notes).format(**value.fields(comp))
        facts.append(
            Target(ctx.put(slot, text, section, f"pair:{i}", group=ws.group, comp=comp), 2, nugget)
        )
        terms += list(value.terms(comp))
    n1, n2 = p1[1].noun, p2[1].noun
    ctx.queries.append(
        Query(
            "multi-note",
            ws.group,
            rng.choice(ASKS).format(comp=comp, n1=n1, n2=n2),
            query_time(second.at, gap),
            second.at,
            targets=facts,
            tags=("kind-pair", f"kind-{p1[1].key}", f"kind-{p2[1].key}")
            + (("first-in-memory",) if in_memory else ()),
            answer=" / ".join(t.fact.text for t in facts),
            answer_terms=tuple(terms),
        )
    )
    return True
