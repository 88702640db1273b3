"""The sessions of the generated memory and where each note goes (seeded, no clock)."""

from __future__ import annotations

import random
import re
import uuid
from dataclasses import dataclass, field

from memlab.datasets.generator import filler
from memlab.datasets.generator.spec import SERVICES, SESSION, Catalog, Note
from memlab.timefmt import DAY, utc_seconds


@dataclass
class Session:
    index: int
    start: float  # unix seconds
    session_id: str
    svc: str
    topic: str
    chatter: bool  # no labelled notes, only chatter
    long: bool  # an extra section of transcript notes (several chunks)
    flush: bool  # a second part appended after a flush separator
    zh: bool  # summary written in Chinese
    # (section, text, note key or None)
    lines: list[tuple[str, str, str | None]] = field(default_factory=list)

    @property
    def title(self) -> str:
        verb = filler.VERBS[self.index % len(filler.VERBS)]
        return f"{verb} {self.svc} {self.topic}"

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-")


def make_sessions(
    rng: random.Random, count: int, first_day: float, last_day: float
) -> list[Session]:
    """``count`` sessions on random days in [first_day, last_day], 08:00–17:59 UTC."""
    days = int((last_day - first_day) // DAY)
    starts = sorted(
        first_day + rng.randint(0, days) * DAY + rng.randint(8 * 60, 17 * 60 + 59) * 60.0
        for _ in range(count)
    )
    for i in range(1, count):  # two sessions never start in the same minute
        starts[i] = max(starts[i], starts[i - 1] + 60.0)
    sessions = []
    for i, start in enumerate(starts):
        kind = rng.random()
        sessions.append(
            Session(
                index=i,
                start=start,
                session_id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                svc=rng.choice(SERVICES),
                topic=rng.choice(filler.TOPICS),
                chatter=kind < 0.18,
                long=0.18 <= kind < 0.24,
                flush=rng.random() < 0.12,
                zh=rng.random() < 0.1,
            )
        )
    return sessions


def place_notes(rng: random.Random, catalog: Catalog, sessions: list[Session]) -> None:
    """Put every session note into a working session inside its time window.

    Notes of one family (versions of a fact, copies of a problem and its fix)
    land in distinct sessions; version windows do not overlap, so versions keep
    their order in time.
    """
    working = [s for s in sessions if not s.chatter]
    last = max(len(sessions) - 1, 1)
    used: dict[str, set[int]] = {}
    for note in catalog.notes:
        if note.where != SESSION:
            continue
        taken = used.setdefault(note.family or note.key, set())
        lo, hi = note.window
        candidates = [s for s in working if lo <= s.index / last <= hi and s.index not in taken]
        session = rng.choice(candidates)
        taken.add(session.index)
        session.lines.append((note.section, note.text, note.key))


def add_unlabelled(rng: random.Random, catalog: Catalog, sessions: list[Session]) -> None:
    """Distractors (keywords without answers), chatter and transcript filler."""
    for distractor in catalog.distractors:
        for session in rng.sample(sessions, rng.randint(*distractor.count)):
            text = rng.choice(distractor.templates).format(svc=session.svc)
            session.lines.append(("Notes", text, None))
    for session in sessions:
        n = rng.randint(2, 4) if session.chatter else rng.randint(1, 3)
        for _ in range(n):
            session.lines.append(("Notes", rng.choice(filler.FILLER).format(svc=session.svc), None))
        if session.long:
            for _ in range(rng.randint(14, 18)):
                text = rng.choice(filler.FILLER).format(svc=rng.choice(SERVICES))
                session.lines.append(("Transcript notes", text, None))
    for session in sessions:
        rng.shuffle(session.lines)


def memory_notes(catalog: Catalog, where: str) -> list[Note]:
    return [n for n in catalog.notes if n.where == where]


def timeline_bounds() -> tuple[float, float, float]:
    """(first session day, last session day, as_of) of the shipped memory."""
    return utc_seconds(2026, 1, 5), utc_seconds(2026, 6, 30), utc_seconds(2026, 6, 30, 18)
