"""The generator's working state and the moves every category makes with it.

``Ctx`` holds the timeline (session and memory slots), the values drawn, the
(component, kind) pairs and failures already used, and the facts and queries
made so far. Categories call ``draw_gap`` (how long after its answer a query is
asked), ``pick_slot`` (where a note can go so that the query's time stays on
the timeline) and ``put`` (write a note there).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from memlab.datasets.generator.draft import (
    DAY,
    MINUTE,
    SESSION,
    Fact,
    MemoryFile,
    Note,
    Query,
    Session,
    Slot,
)
from memlab.datasets.generator.kinds import Kind
from memlab.datasets.generator.schedule import session_path
from memlab.datasets.generator.values import Values
from memlab.datasets.generator.world import END, WORKSPACES, Workspace

# (share of queries, shortest gap, longest gap): log-uniform inside each bucket.
GAP_BUCKETS = ((0.5, 10 * MINUTE, 7 * DAY), (0.3, 7 * DAY, 30 * DAY), (0.2, 30 * DAY, 180 * DAY))


def draw_gap(rng: random.Random) -> float:
    """How long after its answer was written a query is asked (recency-biased)."""
    _, lo, hi = rng.choices(GAP_BUCKETS, [b[0] for b in GAP_BUCKETS])[0]
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def query_time(answer_at: float, gap: float) -> float:
    """``answer_at + gap`` on a whole minute, always after the answer."""
    return max(math.floor((answer_at + gap) / MINUTE) * MINUTE, answer_at + MINUTE)


@dataclass
class Ctx:
    rng: random.Random
    values: Values
    sessions: dict[str, list[Session]]
    memory: dict[str | None, MemoryFile]  # group -> MEMORY.md (None: global)
    used_pairs: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    used_failures: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    queries: list[Query] = field(default_factory=list)

    def session_slots(self, group: str) -> list[Slot]:
        return [s for session in self.sessions[group] for s in session.slots]

    def memory_slots(self, group: str | None) -> list[Slot]:
        """The initial MEMORY.md and the user's appends (preferences go anywhere)."""
        return self.memory[group].slots

    def documented(self, group: str) -> list[Slot]:
        """Only the initial MEMORY.md: the user documents components there, up front."""
        return self.memory[group].slots[:1]

    def workspace(self, kinds: Sequence[Kind] = ()) -> Workspace:
        """A workspace in proportion to its sessions (with ``kinds``: one with a free pair)."""
        pool = [w for w in WORKSPACES if not kinds or self.free_pairs(w, kinds)] or WORKSPACES
        return self.rng.choices(pool, [len(self.sessions[w.group]) for w in pool])[0]

    def free_pairs(self, ws: Workspace, kinds: Sequence[Kind]) -> bool:
        used = self.used_pairs.get(ws.group, set())
        return any((c, k.key) not in used for c in ws.comps for k in kinds)

    def new_pair(
        self, ws: Workspace, kinds: Sequence[Kind], comp: str | None = None
    ) -> tuple[str, Kind] | None:
        """An unused (component, kind) of ``ws`` (the component given or any), marked used."""
        used = self.used_pairs.setdefault(ws.group, set())
        comps = [comp] if comp else list(ws.comps)
        free = [(c, k) for c in comps for k in kinds if (c, k.key) not in used]
        if not free:
            return None
        c, k = self.rng.choice(free)
        used.add((c, k.key))
        return c, k

    def pick_slot(
        self,
        slots: Iterable[Slot],
        *,
        latest: float = END,
        earliest: float = -math.inf,
        avoid: Callable[[Slot], bool] | None = None,
    ) -> Slot | None:
        """A slot with room, written in [earliest, latest], chosen in proportion to its room."""
        free = [
            s
            for s in slots
            if s.free > 0 and earliest <= s.at <= latest and not (avoid and avoid(s))
        ]
        return self.rng.choices(free, [s.free for s in free])[0] if free else None

    def slot_for(self, slots: list[Slot], asked_after: float = 0.0) -> tuple[Slot, float] | None:
        """(slot, gap): a slot whose query, asked a drawn gap later, falls in [asked_after, END]."""
        for _ in range(50):
            gap = draw_gap(self.rng)
            slot = self.pick_slot(slots, latest=END - gap, earliest=asked_after - gap)
            if slot is not None:
                return slot, gap
        return None

    def path_of(self, slot: Slot) -> str:
        if slot.kind == SESSION:
            assert slot.session is not None
            return session_path(slot.session)
        return self.memory[slot.group].path

    def put(
        self,
        slot: Slot,
        text: str,
        section: str,
        family: str,
        *,
        group: str | None,
        after: tuple[str, ...] = (),
        comp: str | None = None,
        change_of: str | None = None,
    ) -> Fact:
        """Write a labelled line into ``slot`` and return its fact."""
        fact = Fact(text, group, self.path_of(slot), slot.at, comp=comp, change_of=change_of)
        slot.add(Note(fact, section, after=after), family)
        return fact


def repeat(count: int, make: Callable[[int], bool], tries: int = 20) -> int:
    """Call ``make(i)`` until it succeeded ``count`` times (at most ``count * tries`` calls)."""
    made = 0
    for _ in range(count * tries):
        if made == count:
            break
        made += bool(make(made))
    return made
