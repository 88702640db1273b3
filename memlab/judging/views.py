"""What both judging views (terminal and notebook widget) say about a candidate."""

from __future__ import annotations

from memlab.judging.session import Item
from memlab.retrieval.explain import format_trace
from memlab.timefmt import format_iso

KEYS = (
    "[0] not relevant  [1] partial  [2] the answer  [s]kip  [a]bstention: nothing relevant  "
    "[b]ack  [n]ote  [t]race  [+] query  [q]uit"
)


def query_line(item: Item) -> str:
    q = item.query
    return f"query {q.query_id} · {q.group} · as of {format_iso(q.as_of)}"


def candidate_line(item: Item) -> str:
    """Where the candidate is (file, lines, source), or that there is none."""
    c = item.candidate
    if c is None:
        return "no candidate: no ranker returned anything for this query (abstention or skip)"
    again = f" · graded {item.grade} before" if item.grade is not None else ""
    return (
        f"candidate {item.position}/{item.count} · {c.path} lines {c.start_line}-{c.end_line}"
        f" · {c.source}{again}"
    )


def trace_text(item: Item) -> str:
    """The stage traces of the rankers that pooled the candidate, one row per ranker."""
    c = item.candidate
    if c is None or not c.traces:
        return "no trace"
    runs = list(c.traces)
    table = format_trace([c.traces[r] for r in runs]).split("\n")
    width = max(len(r) for r in [*runs, "run"])
    rows = [f"{r.ljust(width)}  {line}" for r, line in zip(runs, table[2:], strict=True)]
    header = f"{'run'.ljust(width)}  {table[0]}"
    return "\n".join([header, "-" * len(header), *rows])
