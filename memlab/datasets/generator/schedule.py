"""When things are written: sessions and their flushes, the initial MEMORY.md files and appends.

Sessions follow each workspace's rhythm (``Workspace.weekday`` / ``weekend``)
with a two-week vacation in April for all of them. A session writes its log in
1–4 flushes (each a ``Slot``); the last one ends the session. ``MEMORY.md``
files are written once at the start and then grow by the user's appends.
"""

from __future__ import annotations

import random
import re
import uuid
from datetime import datetime, timezone

from memlab.datasets.generator import prose
from memlab.datasets.generator.draft import (
    DAY,
    GLOBAL,
    HOUR,
    MEMORY,
    MINUTE,
    SESSION,
    MemoryFile,
    Session,
    Slot,
)
from memlab.datasets.generator.world import END, GLOBAL_CREATED, START, Workspace
from memlab.store.layout import MEMORY_FILE, SESSIONS_DIR, session_file_name
from memlab.timefmt import utc_date, utc_seconds

VACATION = (utc_seconds(2026, 4, 6), utc_seconds(2026, 4, 18))
LAST_SESSION_DAY = END - 2 * DAY
SESSION_SLOT_CAPACITY = 3
APPEND_CAPACITY = 2
INITIAL_CAPACITY = 100
# None: the global file
APPENDS = {"ledgerline": 8, "tidepool": 7, "beacon": 6, "marigold": 7, "quarry": 7, None: 22}


def _weekday(t: float) -> int:
    return datetime.fromtimestamp(t, tz=timezone.utc).weekday()


def _sessions_of_day(rng: random.Random, ws: Workspace, day: float) -> list[Session]:
    weekend = _weekday(day) >= 5
    weights = ws.weekend if weekend else ws.weekday
    count = rng.choices(range(len(weights)), weights)[0]
    lo, hi = (10, 16) if weekend else ws.hours
    t = day + rng.randint(lo * 60, hi * 60) * MINUTE
    out = []
    for _ in range(count):
        if t > day + 21 * HOUR:
            break
        session = Session(
            group=ws.group,
            workspace=ws.dir,
            sid=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            start=t,
            comp=rng.choice(ws.comps),
            topic=rng.choice(ws.topics),
            zh=rng.random() < ws.zh_share,
        )
        at = t + rng.randint(8, 25) * MINUTE
        for i in range(rng.choices((1, 2, 3, 4), (0.25, 0.35, 0.28, 0.12))[0]):
            if i:
                at += rng.randint(15, 55) * MINUTE
            slot = Slot(SESSION, ws.group, at, SESSION_SLOT_CAPACITY, session=session, index=i)
            session.slots.append(slot)
        out.append(session)
        t = session.end + rng.randint(20, 150) * MINUTE
    return out


def build_sessions(rng: random.Random, ws: Workspace) -> list[Session]:
    sessions: list[Session] = []
    day = ws.first_session
    while day <= LAST_SESSION_DAY:
        if not VACATION[0] <= day < VACATION[1]:
            sessions += _sessions_of_day(rng, ws, day)
        day += DAY
    return sessions


def session_title(session: Session) -> str:
    verb = prose.VERBS[int(session.start // DAY) % len(prose.VERBS)]
    return f"{verb} {session.comp} {session.topic}"


def session_path(session: Session) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", session_title(session).lower()).strip("-")
    name = session_file_name(utc_date(session.start), slug, session.sid)
    return f"{session.workspace}/{SESSIONS_DIR}/{name}"


def build_memory_file(
    rng: random.Random, ws: Workspace | None, title: str, intro: str
) -> MemoryFile:
    """The initial write and the user's appends, spread over the timeline."""
    group = None if ws is None else ws.group
    created = GLOBAL_CREATED if ws is None else ws.memory_created
    path = MEMORY_FILE if ws is None else f"{ws.dir}/{MEMORY_FILE}"
    kind = GLOBAL if ws is None else MEMORY
    memory = MemoryFile(group, path, title, intro)
    memory.slots.append(Slot(kind, group, created, INITIAL_CAPACITY))
    first = max(created, START) + 7 * DAY
    days = sorted(rng.uniform(first, LAST_SESSION_DAY) for _ in range(APPENDS[group]))
    for i, day in enumerate(days, start=1):
        at = float(int(day // DAY) * DAY + rng.randint(8 * 60, 22 * 60) * MINUTE)
        memory.slots.append(Slot(kind, group, at, APPEND_CAPACITY, index=i))
    memory.slots.sort(key=lambda s: s.at)
    return memory
