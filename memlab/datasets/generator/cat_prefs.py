"""``preference`` queries (evergreen facts in MEMORY.md) and crowded-out global preferences.

The user's preferences live in the global ``MEMORY.md`` (seen by every
workspace), each project's conventions in its own ``MEMORY.md``; both are
written at the start or appended later by the user. Preferences with a
``topic`` can instead be asked as ``evergreen-crowded``: sessions near the
query's time talk about the topic without stating the preference.
"""

from __future__ import annotations

from memlab.datasets.generator.cat_kinds import crowd, crowded_from
from memlab.datasets.generator.context import Ctx, query_time
from memlab.datasets.generator.draft import Query, Session, Target
from memlab.datasets.generator.prefs_data import (
    GLOBAL_PREFS,
    TOPIC_DISTRACTORS,
    WORKSPACE_PREFS,
    ZH_PREFS,
    Pref,
)
from memlab.datasets.generator.world import BY_GROUP, WORKSPACES


def _pref_query(
    ctx: Ctx,
    category: str,
    row: Pref,
    group: str | None,
    ask_group: str,
    tags: tuple[str, ...],
    asked_after: float = 0.0,
    appended: bool = False,
) -> Query | None:
    section, text, answer, asks, _ = row
    slots = ctx.memory_slots(group)[1:] if appended else ctx.memory_slots(group)
    placed = ctx.slot_for(slots, asked_after)
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


def add_preferences(ctx: Ctx, crowded: int, appended: int) -> None:
    """Every preference row once: ``crowded`` global rows with a topic are crowded out;
    ``appended`` rows of each workspace are written by the user's later appends."""
    rng = ctx.rng
    rows = list(GLOBAL_PREFS)
    rng.shuffle(rows)
    topical = [r for r in rows if r[4]][:crowded]
    for row in rows:
        ws = ctx.workspace()
        if row in topical:
            tags = ("global", "preference")
            after = crowded_from(ws)
            query = _pref_query(ctx, "evergreen-crowded", row, None, ws.group, tags, after)
            if query is not None:
                _crowd_topic(ctx, query, row[4])
        else:
            _pref_query(ctx, "preference", row, None, ws.group, ("global",))
    for row in ZH_PREFS:
        _pref_query(ctx, "cjk", row, None, ctx.workspace().group, ("global", "zh", "trigram"))
    for ws in WORKSPACES:
        own = list(WORKSPACE_PREFS[ws.group])
        rng.shuffle(own)
        for k, row in enumerate(own):
            later = k < appended
            own_tags = ("workspace", "appended") if later else ("workspace", "documented")
            _pref_query(ctx, "preference", row, ws.group, ws.group, own_tags, appended=later)


def _crowd_topic(ctx: Ctx, query: Query, topic: str) -> None:
    people = BY_GROUP[query.group].people

    def fields(session: Session) -> dict[str, str]:
        return {"topic": topic, "comp": session.comp, "person": ctx.rng.choice(people).split()[0]}

    crowd(ctx, query, TOPIC_DISTRACTORS, "Notes", fields)
