"""``preference`` queries (evergreen facts in MEMORY.md) and crowded-out global preferences.

The user's preferences live in the global ``MEMORY.md`` (seen by every
workspace), each project's conventions in its own ``MEMORY.md``; both are
written at the start or appended later by the user. Preferences with a
``topic`` can instead be asked as ``evergreen-crowded``: sessions near the
query's time talk about the topic without stating the preference.
"""

from __future__ import annotations

from memlab.datasets.generator.cat_kinds import crowd, slot_for
from memlab.datasets.generator.context import Ctx, query_time
from memlab.datasets.generator.model import Query, Session, Target
from memlab.datasets.generator.prefs_data import (
    GLOBAL_PREFS,
    TOPIC_DISTRACTORS,
    WORKSPACE_PREFS,
    ZH_PREFS,
    Pref,
)
from memlab.datasets.generator.world import BY_GROUP, WORKSPACES


def _pref_query(
    ctx: Ctx, category: str, row: Pref, group: str | None, ask_group: str, tags: tuple[str, ...]
) -> Query | None:
    section, text, answer, asks, _ = row
    placed = slot_for(ctx, ctx.memory_slots(group))
    if placed is None:
        return None
    slot, gap = placed
    fact = ctx.put(slot, text, section, f"pref:{len(ctx.queries)}", group=group)
    query = Query(
        category,
        ask_group,
        ctx.rng.choice(asks),
        query_time(slot.at, gap),
        slot.at,
        targets=[Target(fact, 2)],
        tags=tags,
        answer=answer,
        answer_terms=((answer,),),
    )
    ctx.queries.append(query)
    return query


def add_preferences(ctx: Ctx, crowded: int) -> None:
    """Every preference row once: ``crowded`` of the global rows with a topic are crowded out."""
    rng = ctx.rng
    rows = list(GLOBAL_PREFS)
    rng.shuffle(rows)
    topical = [r for r in rows if r[4]][:crowded]
    for row in rows:
        group = ctx.workspace().group
        if row in topical:
            query = _pref_query(
                ctx, "evergreen-crowded", row, None, group, ("global", "preference")
            )
            if query is not None:
                _crowd_topic(ctx, query, row[4])
        else:
            _pref_query(ctx, "preference", row, None, group, ("global",))
    for row in ZH_PREFS:
        _pref_query(ctx, "cjk", row, None, ctx.workspace().group, ("global", "zh", "trigram"))
    for ws in WORKSPACES:
        for row in WORKSPACE_PREFS[ws.group]:
            _pref_query(ctx, "preference", row, ws.group, ws.group, ("workspace",))


def _crowd_topic(ctx: Ctx, query: Query, topic: str) -> None:
    people = BY_GROUP[query.group].people

    def fields(session: Session) -> dict[str, str]:
        return {"topic": topic, "comp": session.comp, "person": ctx.rng.choice(people).split()[0]}

    crowd(ctx, query, TOPIC_DISTRACTORS, "Notes", fields)
