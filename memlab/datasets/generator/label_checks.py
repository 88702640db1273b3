"""The label checks every generated dataset must pass (a failure raises ``DatasetError``).

* every fact text is one line, occurs exactly once in the whole memory, and
  no text carries a ``<!-- fact -->`` marker;
* a query's answer terms (words that together would answer it) occur only in
  lines of its judged or stale facts, and do occur;
* an abstention query's absent terms never occur together in a line its group
  can see;
* judged facts are written before the query is asked; stale versions before
  the newest; a temporal query's window holds exactly its answer among the
  changes of that value.

Terms match case-insensitively; a term that starts or ends with an ASCII
letter, digit or ``_`` must not continue a longer word there (``port`` does not
match ``report``, ``45s`` does not match ``145s`` or ``2.45s``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from memlab.datasets.generator.draft import Generated, Query
from memlab.datasets.generator.world import END
from memlab.errors import DatasetError

_ASCII_WORD = re.compile(r"[A-Za-z0-9_]")


class TextIndex:
    """Lines of text, searchable for terms (see the module docstring for the rules)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = [line.lower() for line in lines]
        self.text = "\n".join(self.lines)
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def lines_with(self, term: str) -> set[int]:
        needle = term.lower()
        check_before = bool(_ASCII_WORD.match(needle[:1]))
        check_after = bool(_ASCII_WORD.match(needle[-1:]))
        found: set[int] = set()
        pos = self.text.find(needle)
        while pos >= 0:
            end = pos + len(needle)
            before = self.text[pos - 1 : pos] if pos else ""
            after = self.text[end : end + 1]
            ok_before = not (check_before and (before.isalnum() or before in "_."))
            ok_after = not (check_after and (after.isalnum() or after == "_"))
            if ok_before and ok_after:
                found.add(bisect.bisect_right(self.starts, pos) - 1)
            pos = self.text.find(needle, pos + 1)
        return found

    def lines_with_all(self, terms: Iterable[str]) -> set[int]:
        sets = [self.lines_with(t) for t in terms]
        return set.intersection(*sets) if sets else set()


def _fact_problems(gen: Generated, everything: str) -> list[str]:
    problems = []
    for fact in gen.facts:
        if "\n" in fact.text or "<!--" in fact.text:
            problems.append(f"{fact.id}: a fact text must be one line without comments")
        count = everything.count(fact.text)
        if count != 1:
            problems.append(f"{fact.id}: its text occurs {count} times: {fact.text!r}")
    if "<!-- fact" in everything:
        problems.append("a fact marker is written into the memory")
    return problems


def _answer_problems(q: Query, index: TextIndex) -> list[str]:
    allowed = [t.fact.text.lower() for t in q.targets] + [f.text.lower() for f in q.stale]
    problems = []
    for terms in q.answer_terms:
        holders = index.lines_with_all(terms)
        if not holders:
            problems.append(f"{q.qid}: answer terms {terms} occur nowhere")
        for i in sorted(holders):
            line = index.lines[i]
            if not any(a in line for a in allowed):
                problems.append(f"{q.qid}: answer terms {terms} also in: {line.strip()[:120]}")
    for terms in q.absent_terms:
        for i in sorted(index.lines_with_all(terms))[:1]:
            problems.append(
                f"{q.qid}: absent terms {terms} occur in: {index.lines[i].strip()[:120]}"
            )
    return problems


def _time_problems(q: Query) -> list[str]:
    problems = []
    positive = [t.fact for t in q.targets if t.grade > 0]
    if q.as_of > END or (positive and q.answer_at is None):
        problems.append(f"{q.qid}: as_of after the timeline or answer_at missing")
    last = max((f.at for f in positive), default=None)
    if last is not None and (last != q.answer_at or not last < q.as_of):
        problems.append(f"{q.qid}: answer_at is not the last answer's time before as_of")
    answer = max((f.at for f in positive), default=0.0)
    if any(f.at >= answer for f in q.stale):
        problems.append(f"{q.qid}: a stale version is not older than the answer")
    if q.window is not None:
        inside = [f for f in q.family if q.window[0] <= f.at < q.window[1]]
        if inside != positive:
            problems.append(f"{q.qid}: the window holds {len(inside)} changes, not just the answer")
    return problems


def check_labels(gen: Generated) -> None:
    texts = gen.final_texts()
    everything = "\n".join(texts[p] for p in sorted(texts))
    by_group: dict[str, list[str]] = {}
    for path in sorted(texts):
        for group in gen.groups_of(path):
            by_group.setdefault(group, []).extend(texts[path].split("\n"))
    indexes = {g: TextIndex(lines) for g, lines in by_group.items()}
    problems = _fact_problems(gen, everything)
    for q in gen.queries:
        problems += _answer_problems(q, indexes[q.group])
        problems += _time_problems(q)
    if problems:
        raise DatasetError(
            f"generated labels are inconsistent ({len(problems)} problems)", problems=problems
        )
