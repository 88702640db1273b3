"""The unlabelled text of the memory: session summaries, activity, code, tables, traces.

``add_filler`` writes, for every session, a summary, activity bullets, now and
then a code block, a command, a result table, a stack trace (of a failure no
query asks about), a question, a line referring back to an earlier session
("the fix from Tuesday") and, at its end, next steps; sessions marked ``zh``
get a part in Chinese. ``order_entries`` then fixes the order of everything a
slot holds (summary first, next steps last), so rendering needs no randomness.
"""

from __future__ import annotations

import random
from datetime import datetime, timezone

from memlab.datasets.generator import prose, snippets
from memlab.datasets.generator.cat_failures import _failure, trace
from memlab.datasets.generator.context import Ctx
from memlab.datasets.generator.draft import DAY, Session, Slot
from memlab.datasets.generator.world import WORKSPACES, Workspace

SUMMARY, NEXT = "Summary", "Wrap-up"


def fill(template: str, fields: dict[str, str]) -> str:
    """Replace ``{name}`` placeholders only (code keeps its own braces)."""
    for key, value in fields.items():
        template = template.replace("{" + key + "}", value)
    return template


def _weekday(t: float) -> str:
    return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%A")


def _fields(
    rng: random.Random, ws: Workspace, session: Session, earlier: Session | None
) -> dict[str, str]:
    others = [c for c in ws.comps if c != session.comp]
    fn = rng.choice(snippets.FUNCTIONS)
    return {
        "comp": session.comp,
        "Comp": session.comp.capitalize(),
        "comp2": rng.choice(others),
        "topic": session.topic,
        "person": rng.choice(ws.people).split()[0],  # first names only in passing
        "day": _weekday(earlier.start) if earlier else "last time",
        "pr": str(rng.randint(100, 999)),
        "n": str(rng.randint(2, 19)),
        "fn": fn,
        "Fn": fn[0].upper() + fn[1:],
        "path": f"services/{session.comp}" if ws.lang == "ts" else f"{session.comp}/",
        "sha": f"{rng.getrandbits(28):07x}",
    }


def _bullet(section: str, text: str) -> tuple[str, tuple[str, ...]]:
    return section, ("- " + text,)


def _block(section: str, lead: str, lang: str, body: str) -> tuple[str, tuple[str, ...]]:
    return section, (lead, "", f"```{lang}", *body.split("\n"), "```")


def _session_filler(ctx: Ctx, ws: Workspace, session: Session, earlier: Session | None) -> None:
    rng = ctx.rng
    f = _fields(rng, ws, session, earlier)
    slots = session.slots
    first, last = slots[0], slots[-1]
    goal = fill(rng.choice(prose.GOALS), f)
    first.extra.append(_bullet(SUMMARY, f"Goal: {goal[0].upper()}{goal[1:]}"))
    first.extra.append(_bullet(SUMMARY, "Context: " + fill(rng.choice(prose.OPENERS), f)))
    section = "Notes"
    count = min(len(prose.ACTIVITIES), 2 * len(slots) + rng.randint(2, 4))
    for i, activity in enumerate(rng.sample(prose.ACTIVITIES, count)):
        slot = slots[i] if i < len(slots) else rng.choice(slots)  # every flush says something
        slot.extra.append(_bullet(section, fill(activity, _fields(rng, ws, session, earlier))))
    if rng.random() < 0.55:
        lang, body = rng.choice(snippets.CODE[ws.lang])
        rng.choice(slots).extra.append(
            _block("Notes", rng.choice(snippets.LEAD_INS), lang, fill(body, f))
        )
    if rng.random() < 0.3:
        body = fill(rng.choice(snippets.SHELL + snippets.SQL), f)
        lang = "sql" if body.startswith(("select", "explain")) else "sh"
        rng.choice(slots).extra.append(_block("Notes", rng.choice(snippets.LEAD_INS), lang, body))
    if rng.random() < 0.25:
        rows = [
            fill(r, {k: f"{rng.uniform(1, 900):.1f}" for k in "abcdef"})
            for r in rng.choice(snippets.TABLES)
        ]
        rng.choice(slots).extra.append(("Notes", ("Numbers from the run:", "", *rows)))
    if rng.random() < 0.25:
        _filler_trace(ctx, ws, rng.choice(slots))
    if earlier is not None and rng.random() < 0.4:
        rng.choice(slots).extra.append(_bullet("Notes", fill(rng.choice(prose.COREFERENCE), f)))
    if rng.random() < 0.3:
        rng.choice(slots).extra.append(
            _bullet("Notes", "Open question: " + fill(rng.choice(prose.QUESTIONS), f))
        )
    if session.zh:
        lines = [fill(rng.choice(prose.ZH_SUMMARIES), f), ""]
        lines += ["- " + fill(a, f) for a in rng.sample(prose.ZH_ACTIVITIES, rng.randint(2, 4))]
        rng.choice(slots).extra.append((rng.choice(prose.ZH_SECTIONS), tuple(lines)))
    for slot in slots:
        if rng.random() < 0.5:
            paragraph = " ".join(fill(rng.choice(prose.MIDDLES), f) for _ in range(2))
            slot.extra.append((section, (paragraph,)))
    steps = rng.sample(prose.NEXT_STEPS, rng.randint(1, 2))
    joined = "; ".join(fill(x, f).rstrip(".") for x in steps)
    last.extra.append(_bullet(NEXT, "Outcome: " + fill(rng.choice(prose.MIDDLES), f)))
    last.extra.append(_bullet(NEXT, f"Next: {joined}."))


def _filler_trace(ctx: Ctx, ws: Workspace, slot: Slot) -> None:
    """A trace of a failure no query is about (the pair is then taken)."""
    picked = _failure(ctx, ws, "filler")
    if picked is None:
        return
    comp, failure = picked
    lead = f"Saw this in {comp} while testing something else; not ours, left it alone."
    slot.extra.append(("Debugging notes", (lead, *trace(ctx.rng, failure, comp, ws.group))))


def add_filler(ctx: Ctx) -> None:
    for ws in WORKSPACES:
        sessions = ctx.sessions[ws.group]
        for i, session in enumerate(sessions):
            recent = [s for s in sessions[max(0, i - 6) : i] if session.start - s.start <= 6 * DAY]
            earlier = ctx.rng.choice(recent) if recent else None
            _session_filler(ctx, ws, session, earlier)


def order_entries(rng: random.Random, slot: Slot) -> list[tuple[str, tuple[str, ...]]]:
    """Everything the slot holds, in writing order: summary first, next steps last."""
    entries = [(n.section, tuple(n.lines())) for n in slot.notes] + list(slot.extra)
    head = [e for e in entries if e[0] == SUMMARY]
    tail = [e for e in entries if e[0] == NEXT]
    body = [e for e in entries if e[0] not in (SUMMARY, NEXT)]
    rng.shuffle(body)
    return head + body + tail
