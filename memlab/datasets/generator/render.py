"""Markdown of the generated memory files: session logs and the two MEMORY.md files."""

from __future__ import annotations

import random
from collections.abc import Mapping

from memlab.datasets.generator import filler
from memlab.datasets.generator.spec import Note
from memlab.datasets.generator.timeline import Session
from memlab.datasets.targets import fact_marker
from memlab.store.layout import flush_separator
from memlab.timefmt import format_iso

SESSION_SECTIONS = ("Decisions", "Gotchas", "Commands", "Notes", "Transcript notes")
GLOBAL_SECTIONS = ("Preferences", "Environment")
WORKSPACE_SECTIONS = ("Architecture", "Conventions", "Commands", "Environment")


def bullet(text: str, key: str | None, fact_ids: Mapping[str, str]) -> str:
    """A Markdown bullet; labelled notes end with their fact marker."""
    return f"- {text} {fact_marker(fact_ids[key])}" if key is not None else f"- {text}"


def _sections(pairs: list[tuple[str, str]], order: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for section in order:
        lines = [line for name, line in pairs if name == section]
        if lines:
            out += [f"## {section}", "", *lines, ""]
    return out


def render_session(session: Session, rng: random.Random, fact_ids: Mapping[str, str]) -> str:
    stamp = format_iso(session.start)
    head = [
        f"# {session.title.capitalize()}",
        "",
        f"_{stamp[:10]} {stamp[11:16]}_",
        "",
        "## Summary",
        "",
    ]
    if session.chatter:
        head.append(rng.choice(filler.CHATTER_SUMMARIES))
    elif session.zh:
        head.append(
            rng.choice(filler.SUMMARIES_ZH).format(
                svc=session.svc, topic_zh=rng.choice(filler.TOPICS_ZH)
            )
        )
    else:
        head.append(rng.choice(filler.SUMMARIES).format(svc=session.svc, topic=session.topic))
    head.append("")
    lines = list(session.lines)
    follow: list[str] = []
    if session.flush:
        labelled = [i for i, line in enumerate(lines) if line[2] is not None]
        moved = lines.pop(labelled[-1]) if labelled else None
        follow = ["## Follow-up", ""]
        if moved is not None:
            follow.append(bullet(moved[1], moved[2], fact_ids))
        follow.append(bullet(rng.choice(filler.FILLER).format(svc=session.svc), None, fact_ids))
    pairs = [(section, bullet(text, key, fact_ids)) for section, text, key in lines]
    next_step = rng.choice(filler.NEXT_STEPS).format(svc=session.svc, topic=session.topic)
    body = head + _sections(pairs, SESSION_SECTIONS) + ["## Next steps", "", f"- {next_step}"]
    text = "\n".join(body) + "\n"
    if follow:
        later = session.start + rng.randint(30, 180) * 60
        text = text.rstrip("\n") + flush_separator(later) + "\n".join(follow) + "\n"
    return text


def render_memory(
    title: str,
    intro: str,
    notes: list[Note],
    order: tuple[str, ...],
    rng: random.Random,
    fact_ids: Mapping[str, str],
) -> str:
    shuffled = list(notes)
    rng.shuffle(shuffled)
    pairs = [(n.section, bullet(n.text, n.key if n.labelled else None, fact_ids)) for n in shuffled]
    return "\n".join([f"# {title}", "", intro, "", *_sections(pairs, order)]).rstrip("\n") + "\n"
