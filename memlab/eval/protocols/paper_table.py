"""The paper-shaped table: systems as rows, measures × categories as columns.

``paper_table(result, refs)`` has one row per memlab run, then one per reference
system of a ``--published`` file, and one column per (category, measure): the
overall mean (``all``) first, then each category of the scored questions, the
measures being the ones shown (the paper's, or ``--measures``). Values are
percentages where the paper prints them (``Protocol.percent``: LoCoMo), fractions
otherwise; a number the references do not give is empty. ``table_text`` writes
it as Markdown (``.md``) or LaTeX (``.tex``), the layout of the papers' tables
(``memlab compare --protocol NAME --table markdown|latex`` prints it, ``--out``
writes both).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from memlab.eval.protocols.published import References
from memlab.eval.protocols.unit_runs import ProtocolResult

if TYPE_CHECKING:  # pandas loads when a table is built
    import pandas as pd

ALL = "all"


def paper_table(result: ProtocolResult, refs: References | None = None) -> pd.DataFrame:
    """Systems × (category, measure) (see the module docstring)."""
    import pandas as pd

    shown = list(result.protocol.shown)
    cats = [ALL, *(c for c in result.questions.categories if c)]
    if len(cats) == 2:  # one category: its numbers are the overall ones
        cats = [ALL]
    overall = result.aggregated.set_index(["run", "measure"])["value"]
    by_cat = result.categories.set_index(["run", "category", "measure"])["mean"]
    columns = pd.MultiIndex.from_tuples(
        [(c, m) for c in cats for m in shown], names=["category", "measure"]
    )
    rows: dict[str, list[float]] = {}
    for run in result.runs:
        rows[run] = [
            _get(overall, (run, m)) if c == ALL else _get(by_cat, (run, c, m))
            for c in cats
            for m in shown
        ]
    for ref in refs.rows if refs is not None else ():
        values = rows.setdefault(ref.system, [math.nan] * len(columns))
        for i, (c, m) in enumerate(columns):
            if (ref.category or ALL) == c and m in ref.values:
                values[i] = ref.values[m]
    frame = pd.DataFrame(list(rows.values()), index=list(rows), columns=columns)
    frame.index.name = "system"
    return frame * 100.0 if result.protocol.percent else frame


def digits_of(result: ProtocolResult) -> int:
    """Decimals as the paper prints them: one for percentages, three for fractions."""
    return 1 if result.protocol.percent else 3


def _get(series: pd.Series, key: tuple[str, ...]) -> float:
    return float(series[key]) if key in series.index else math.nan


def table_text(frame: pd.DataFrame, suffix: str, *, digits: int) -> str:
    """``frame`` (from ``paper_table``) as Markdown or LaTeX."""
    cells = [[_cell(v, digits) for v in row] for row in frame.to_numpy()]
    systems = [str(s) for s in frame.index]
    columns: list[tuple[str, str]] = [(str(c[0]), str(c[1])) for c in frame.columns]
    if suffix == ".md":
        head = ["system", *(m if c == ALL else f"{c} {m}" for c, m in columns)]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += [
            "| " + " | ".join([s, *row]) + " |" for s, row in zip(systems, cells, strict=True)
        ]
        return "\n".join(lines) + "\n"
    groups = list(dict.fromkeys(c for c, _ in columns))
    width = len(columns) // len(groups)
    lines = [
        "\\begin{tabular}{l" + "r" * len(columns) + "}",
        "\\hline",
        " & ".join(["", *(f"\\multicolumn{{{width}}}{{c}}{{{_tex(g)}}}" for g in groups)])
        + " \\\\",
        " & ".join(["system", *(_tex(m) for _, m in columns)]) + " \\\\",
        "\\hline",
    ]
    lines += [" & ".join([_tex(s), *row]) + " \\\\" for s, row in zip(systems, cells, strict=True)]
    return "\n".join([*lines, "\\hline", "\\end{tabular}"]) + "\n"


def _cell(value: float, digits: int) -> str:
    return "" if math.isnan(value) else f"{value:.{digits}f}"


def _tex(text: str) -> str:
    return "".join("\\" + ch if ch in "&%$#_{}" else ch for ch in text)
