"""``Separation`` as text: the sections ``memlab compare`` prints after its main table.

Each section is its own function (a heading line, then a table), so a caller can
print some of them; ``separation_text`` joins them all.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pandas as pd

from memlab.eval.compare.experiment import summary_text
from memlab.eval.compare.separation import Separation
from memlab.eval.measures import NUGGET_MEASURES
from memlab.eval.stats.power import POWER

_PARENS = re.compile(r"\([^)]*\)")  # the query's own words in a reason


def _fmt(v: float) -> str:
    return f"{v:.3f}"


def _table(frame: pd.DataFrame, index: bool = True) -> str:
    text = frame.to_string(index=index, float_format=_fmt, na_rep="–")
    return "\n".join("  " + line for line in text.splitlines())


def _flat(frame: pd.DataFrame) -> pd.DataFrame:
    """Two-level columns as one line: ``(end to end, fts)`` → ``e2e fts``,
    ``(queries, judged)`` → ``judged``."""
    short = {"end to end": "e2e", "ranking only": "rank-only"}
    out = frame.copy()
    pairs = [(str(c[0]), str(c[1])) for c in frame.columns]
    out.columns = [
        (b or a) if a == "queries" else f"{short.get(a, a)} {b}".strip() for a, b in pairs
    ]
    return out


def indexes_section(sep: Separation) -> str:
    t = sep.indexes
    parts = [
        f"{tok} for {int(g['queries'].sum())} queries"
        + ("" if why == "default" else f" ({why}: {', '.join(sorted(set(g['category'])))})")
        for (tok, why), g in t.groupby(["tokenizer", "why"], sort=False)
    ]
    return "Indexes: " + "; ".join(parts) + " — each query's candidates from its own replay"


def degraded_section(sep: Separation) -> str:
    """Queries whose candidates were gathered degraded, by reason (the first run's memory)."""
    first = sep.runs[0]
    reasons: Counter[str] = Counter()
    for why in sep.end_to_end.timelines[first].batch.reasons:
        for reason in dict.fromkeys(_PARENS.sub("(…)", r) for r in why):
            reasons[reason] += 1
    if not reasons:
        return ""
    lines = ["Degraded candidates (queries, by reason; runs without vectors skip vector reasons):"]
    lines += [f"  {n:>4}  {reason}" for reason, n in reasons.most_common()]
    return "\n".join(lines)


def reachability_section(sep: Separation) -> str:
    s = sep.summary
    first = s.iloc[0]
    lines = [
        "Reachability: can a judged query's answer pass decay and min_score at its time? "
        "(the ceiling no ranking beats)",
        f"  {first['judged']} judged queries; {first['answer gone']} have no answer at their "
        f"time ({_gone_because(sep)}) and are not scored; {first['answer exists']} are.",
    ]
    table = s.assign(
        reachable=[
            f"{r} / {j} ({share:.1%})"
            for r, j, share in zip(s["reachable"], s["judged"], s["reachable share"], strict=True)
        ]
    )[["run", "what", "filters", "reachable"]]
    return "\n".join([*lines, _table(table, index=False)])


def _gone_because(sep: Separation) -> str:
    if sep.end_to_end.prepared.memory.dream is None:
        return "deleted from the memory by then"
    return "gone from the memory by then: Dream consolidates session logs and deletes them"


def ranking_only_section(sep: Separation) -> str:
    exp = sep.ranking_only
    measures = [sep.measure, *NUGGET_MEASURES]
    head = (
        "Ranking only: the same candidates with decay off and min_score 0 (the ranker "
        "alone, nothing filtered away)"
    )
    body = summary_text(exp, [sep.measure, "R@5", "RR"]).splitlines()[1:]
    lines = [head, *body]
    if not exp.compared.empty:
        c = exp.compared[exp.compared["measure"].isin(measures)]
        cols = ["run", "measure", "delta", "ci_low", "ci_high", "p", "wins", "ties", "losses", "n"]
        lines.append(_table(c[cols], index=False))
    return "\n".join(lines)


def age_section(sep: Separation) -> str:
    head = (
        f"{sep.measure} by answer age (time from writing the answer to the query; queries "
        f"judged, with an answer at their time, reachable under {sep.runs[0]})"
    )
    return head + "\n" + _table(_flat(sep.age_table()))


def category_section(sep: Separation) -> str:
    lines = [f"{sep.measure} by category", _table(_flat(sep.category_table()))]
    for m in NUGGET_MEASURES:
        if (sep.by_category["measure"] == m).any():
            lines += [f"{m} by category (queries judged with nuggets)"]
            lines.append(_table(_flat(sep.category_table(m))))
    return "\n".join(lines)


def changes_section(sep: Separation) -> str:
    if sep.changes.empty:
        return ""
    head = "Rankings changed: queries a run ranks differently from the run it modifies"
    return head + "\n" + _table(_flat(sep.changes_table()))


def power_section(sep: Separation) -> str:
    p = sep.power
    if p.empty:
        return ""
    head = (
        f"Power: the smallest {sep.measure} difference each comparison detects with "
        f"{POWER:.0%} probability (paired t-test, α 0.05; analytic from the differences' sd, "
        "checked by bootstrap)"
    )
    cols = [
        "view",
        "run",
        "reference",
        "n",
        "tied",
        "sd of differences",
        "delta",
        "MDE analytic",
        "MDE bootstrap",
        "bootstrap power at analytic MDE",
    ]
    worst = max(p["MDE analytic"].max(), p["MDE bootstrap"].max()) if len(p) else float("nan")
    tail = f"  largest minimum detectable difference: {worst:.3f}"
    return "\n".join([head, _table(p[cols], index=False), tail])


def sweep_section(sep: Separation) -> str:
    head = (
        "min_score sweep (end to end): Success@5 over the scored queries against AbstainHits "
        "(hits for the queries nothing answers)"
    )
    return head + "\n" + _table(sep.sweep_table())


SECTIONS: tuple[Callable[[Separation], str], ...] = (
    indexes_section,
    degraded_section,
    reachability_section,
    ranking_only_section,
    age_section,
    category_section,
    changes_section,
    power_section,
    sweep_section,
)


def separation_text(sep: Separation) -> str:
    return "\n\n".join(text for section in SECTIONS if (text := section(sep)))
