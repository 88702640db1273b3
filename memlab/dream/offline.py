"""A deterministic, offline consolidator: Dream end to end with no model.

It reads the Dream input (SPEC §7.3 step 1) block by block — the existing
memory first, then each session in stem order (oldest first) — and:

* **merges sections by heading**: every ``##``-or-deeper heading names a section
  (matched case- and space-insensitively, first spelling kept); text under a
  level-1 title or before any heading goes to "General";
* **keeps the newest version of a superseded fact**: an item ``label: value``
  (``- Database: PostgreSQL 16``) replaces an earlier item with the same label
  in the same section, in place; other items are deduplicated by their text;
* **drops noise**: HTML comments (flush markers), horizontal rules, and filler
  items (fewer than three letters or digits, or "ok", "thanks", "done", …);
* **stays within a budget** (default ``BUDGET_BYTES``, the 16,000 that c0 keeps of
  a response and of the existing memory, SPEC §7.3): while the document is larger,
  it condenses the largest section by dropping its oldest item (an item's age is
  when it was last written: its position in the existing memory, then the
  sessions in order). A model asked to merge the sessions into a bounded memory
  keeps what is new and lets the oldest go; without the budget every new fact
  would land past c0's 16,000-character cut and be lost at once, while the
  stale bulk of the memory stayed. ``budget=None`` never drops anything.

The output is ``# Memory`` plus one ``## Section`` per section, items as
bullets. Feeding the output back in with no new session returns it unchanged,
so a duplicate consolidation is harmless (SPEC §7.4). No item at all → NO_REPLY.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memlab.store.chunker import heading_level

GENERAL = "General"
BUDGET_BYTES = 16_000  # c0's cap on the response (characters) and existing memory (bytes)
_BLOCK = re.compile(r"^--- (?:Existing Memory \(merge with new sessions\)|Session: .+?) ---$", re.M)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_RULE = re.compile(r"^\s*([-*_])(?:\s*\1){2,}\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LABEL = re.compile(r"^\**([^:*`]{1,60}?)\**\s*:\s+\S")
FILLER = frozenset(
    [
        "ok",
        "okay",
        "thanks",
        "thank you",
        "done",
        "lgtm",
        "hi",
        "hello",
        "bye",
        "n/a",
        "none",
        "nothing",
        "tbd",
        "wip",
        "no changes",
        "nothing to note",
        "nothing new",
    ]
)
# Labels too generic to mean "the same fact" (two "Note: …" items are two notes).
GENERIC_LABELS = frozenset(
    [
        "note",
        "notes",
        "nb",
        "tip",
        "example",
        "warning",
        "important",
        "todo",
        "question",
        "answer",
        "see",
        "also",
    ]
)


def _norm(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .:")


@dataclass
class _Item:
    lines: list[str]
    code: bool = False
    age: int = 0  # when it was (last) written: larger is newer

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def key(self) -> str:
        if self.code:
            return "code:" + self.text
        m = _LABEL.match(self.lines[0])
        if m and _norm(m.group(1)) not in GENERIC_LABELS:
            return "label:" + _norm(m.group(1))
        return "text:" + _norm(" ".join(self.lines))

    def is_noise(self) -> bool:
        if self.code:
            return False
        flat = " ".join(self.lines)
        return sum(c.isalnum() for c in flat) < 3 or _norm(flat).strip("!") in FILLER

    def render(self) -> str:
        return self.text if self.code else "- " + self.text

    def nbytes(self) -> int:
        return len(self.render().encode("utf-8")) + 1  # its line break


@dataclass
class _Memory:
    titles: dict[str, str] = field(default_factory=dict)  # section key -> first spelling
    items: dict[str, dict[str, _Item]] = field(default_factory=dict)  # section -> key -> item
    written: int = 0  # items added so far (the next item's age)

    def add(self, title: str, item: _Item) -> None:
        if item.is_noise():
            return
        section = _norm(title) or _norm(GENERAL)
        self.titles.setdefault(section, title.strip() or GENERAL)
        self.written += 1
        item.age = self.written
        self.items.setdefault(section, {})[item.key()] = item  # in place: dicts keep first position

    def condense(self, budget: int) -> None:
        """Drop the oldest item of the largest section until the document fits ``budget``
        UTF-8 bytes."""
        sizes = {s: sum(i.nbytes() for i in items.values()) for s, items in self.items.items()}
        while len(self.render().encode("utf-8")) > budget and any(sizes.values()):
            section = max(sizes, key=lambda s: sizes[s])  # ties: the first section
            items = self.items[section]
            key = min(items, key=lambda k: items[k].age)
            sizes[section] -= items.pop(key).nbytes()

    def render(self) -> str:
        out = ["# Memory"]
        for section, items in self.items.items():
            if items:
                out += ["", f"## {self.titles[section]}", ""]
                out += [item.render() for item in items.values()]
        return "\n".join(out) + "\n"


def _parse_block(text: str, memory: _Memory) -> None:
    title = GENERAL
    item: _Item | None = None

    def flush() -> None:
        nonlocal item
        if item is not None:
            memory.add(title, item)
        item = None

    for line in _COMMENT.sub("", text).split("\n"):
        if item is not None and item.code:
            item.lines.append(line)
            if _FENCE.match(line):
                flush()
            continue
        level = heading_level(line)
        bullet = _BULLET.match(line)
        if _FENCE.match(line):
            flush()
            item = _Item([line], code=True)
        elif level:
            flush()
            title = GENERAL if level == 1 else line.strip().lstrip("#").strip()
        elif not line.strip() or _RULE.match(line):
            flush()
        elif bullet and not (item is not None and line[:1].isspace() and line.strip()[:1] in "-*+"):
            flush()
            item = _Item([bullet.group(1).strip()])
        elif item is not None:
            item.lines.append(line.rstrip())
        else:
            item = _Item([line.strip()])
    flush()


def consolidate_text(dream_input: str, budget: int | None = BUDGET_BYTES) -> str:
    """Merge the blocks of a Dream input into one memory of at most ``budget`` UTF-8 bytes
    (None: no limit; NO_REPLY if nothing is left)."""
    memory = _Memory()
    for block in _BLOCK.split(dream_input):
        _parse_block(block, memory)
    if budget is not None:
        memory.condense(budget)
    if not any(memory.items.values()):
        return "NO_REPLY"
    return memory.render()


class OfflineConsolidator:
    """The deterministic consolidator behind ``--consolidator offline``."""

    name = "offline"
    budget: int | None = BUDGET_BYTES

    def __init__(self, budget: int | None = BUDGET_BYTES) -> None:
        self.budget = budget

    def consolidate(self, dream_input: str) -> str:
        return consolidate_text(dream_input, self.budget)
