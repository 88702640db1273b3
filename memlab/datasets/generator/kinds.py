"""What a fact about a component can state ("kinds"), with their phrasing pools.

A ``Kind`` is one attribute of a service (its local port, owner, timeout, …) and
every way the generator writes or asks about it:

* ``notes`` — a line stating the value (``{comp}``, ``{v}``, kind fields such as
  ``{thing}`` or ``{lib}``); ``changes`` — a line recording that it changed (only
  the new value, never the old one, so each value sits in one line);
* ``asks`` — keyword questions sharing words with the notes; ``paras`` —
  paraphrases that share little more than the component's name; ``when_asks`` —
  questions about a change at a time (``{when}``: "last week", "on Tuesday");
* ``distractors`` — lines that share the component and the kind's words but
  state no value (they crowd out an answer kept in ``MEMORY.md``);
* ``markers`` — words any line answering a question of this kind must contain
  (used to prove that a near-miss question has no answer);
* ``zh_notes`` / ``zh_asks`` — Chinese phrasings, where the kind has them.

No fact line starts with ``Word: `` (the offline Dream consolidator would read it
as a labelled item and let one replace another). The catalogue itself is in
``kinds_service`` and ``kinds_tooling``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    key: str
    noun: str  # "local port" — used to combine two kinds in one question
    section: str  # session heading for plain notes
    mem_section: str  # MEMORY.md heading
    notes: tuple[str, ...]
    asks: tuple[str, ...]
    paras: tuple[str, ...]
    changes: tuple[str, ...]
    when_asks: tuple[str, ...]
    distractors: tuple[str, ...]
    markers: tuple[str, ...]
    zh_notes: tuple[str, ...] = ()
    zh_asks: tuple[str, ...] = ()

    @property
    def has_zh(self) -> bool:
        return bool(self.zh_notes)
