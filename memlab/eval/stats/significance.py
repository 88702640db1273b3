"""Significance that reads right: the Holm family named and shown, the verdict explained,
and a paper-style table with significance marks.

**Families.** Holm's step-down correction (Holm 1979, "A simple sequentially rejective
multiple test procedure", Scand. J. Statist. 6) keeps the chance of *any* false
"significant" within a family of tests at ``alpha``. Which tests form the family
decides how strict it is, so memlab names it:

* ``measure`` (default) — the tests of one measure: every run against the baseline
  on nDCG@10 is one family, on R@5 another. A paper's table reads this way;
* ``all`` — every test of the table at once (every run, every measure): strictest;
* ``none`` — no correction: each p-value on its own.

``adjust`` adds to a comparison table the family's label and size, the adjusted
p-value, the verdict (``better`` / ``worse`` / ``no difference``) and a ``note``
where the interval and the verdict seem to disagree: a bootstrap CI that excludes 0
next to a verdict of no difference (the correction is stricter than one interval),
or a significant test whose CI touches 0 (the test and the percentile bootstrap
differ at the margin).

**The table for papers and slides** (``pairwise_table``), in the style of ranx's
``Report``: one row per run (lettered a, b, c, …), one column per measure, each mean
marked with the letters of the runs it is significantly better than (lower is better
for ``Redundancy``, ``Stale``, ``Tokens`` …: each family's ``direction`` in
``memlab.eval.measures.families``) — every pair
of runs tested, Holm within each measure over its pairs — with Markdown and LaTeX
renderings and a footnote that names the test and the family.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memlab.errors import ConfigError, unknown_name
from memlab.eval.measures import better_sign

if TYPE_CHECKING:  # pandas and scipy load when a table is computed, not with the CLI
    import pandas as pd

FAMILIES = ("measure", "all", "none")
ALPHA = 0.05
TEST_NAMES = {"t": "paired t-test", "fisher": "Fisher randomisation test"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SUPERSCRIPTS = dict(zip(LETTERS, "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ𐞥ʳˢᵗᵘᵛʷˣʸᶻ", strict=True))


def check_family(family: str) -> str:
    if family not in FAMILIES:
        raise ConfigError(unknown_name("family", str(family), FAMILIES))
    return family


def family_keys(table: pd.DataFrame, family: str) -> pd.Series:
    """The family each row's test belongs to (a label)."""
    if family == "measure":
        return table["measure"].astype(str)
    return table["measure"].map(lambda _: "every test" if family == "all" else "-")


def adjust(
    table: pd.DataFrame, family: str = "measure", *, alpha: float = ALPHA, test: str = "t"
) -> pd.DataFrame:
    """``table`` (one test per row: ``p``, ``delta``, ``ci_low``, ``ci_high``) with
    ``family``, ``family_size``, ``p_holm``, ``significant``, ``verdict`` and ``note``."""
    import pandas as pd

    from memlab.eval.stats import paired as stats

    check_family(family)
    out = table.copy()
    if out.empty:
        return out
    keys = family_keys(out, family)
    out["family"] = keys
    out["family_size"] = keys.map(keys.value_counts()).astype(int) if family != "none" else 1
    if family == "none":
        out["p_holm"] = out["p"]
    else:
        adjusted = pd.Series(float("nan"), index=out.index)
        for _, rows in out.groupby(keys, sort=False):
            adjusted[rows.index] = stats.holm(rows["p"].tolist())
        out["p_holm"] = adjusted
    out["significant"] = out["p_holm"] < alpha
    out["verdict"] = [
        ("better" if d * better_sign(m) > 0 else "worse") if sig else "no difference"
        for d, sig, m in zip(out["delta"], out["significant"], out["measure"], strict=True)
    ]
    out["note"] = [_note(row, family, alpha, test) for row in out.to_dict("records")]
    return out


def _note(row: dict[str, Any], family: str, alpha: float, test: str) -> str:
    """Why the interval and the verdict seem to disagree ("" when they agree)."""
    lo, hi = float(row["ci_low"]), float(row["ci_high"])
    p, adjusted = float(row["p"]), float(row["p_holm"])
    significant, size = bool(row["significant"]), int(row["family_size"])
    excludes_zero = lo > 0 or hi < 0
    ci = f"the CI [{lo:+.3f}, {hi:+.3f}]"
    if excludes_zero and not significant:
        if family == "none" or adjusted == p:
            return (
                f"{ci} excludes 0 but the {TEST_NAMES.get(test, test)} gives p = {p:.3f} "
                f"≥ {alpha:g}: the percentile bootstrap and the test differ at the margin"
            )
        where = "of this measure" if family == "measure" else "of the table"
        return (
            f"{ci} excludes 0 and p = {p:.3f}, but Holm over the {size} tests {where} "
            f"raises it to {adjusted:.3f} ≥ {alpha:g}: one interval on its own is not "
            "corrected for the other comparisons"
        )
    if significant and not excludes_zero:
        return (
            f"significant (adjusted p = {adjusted:.3f}) though {ci} touches 0: the "
            f"{TEST_NAMES.get(test, test)} and the percentile bootstrap differ at the margin"
        )
    return ""


def family_sentence(family: str, runs: int, measures: int, alpha: float = ALPHA) -> str:
    """One line naming the family of a table of ``runs`` runs against a baseline."""
    tests = max(runs - 1, 0)
    if family == "measure":
        return (
            f"significant: Holm-adjusted p < {alpha:g}, family = each measure's {tests} "
            f"comparison{'s' if tests != 1 else ''} with the baseline (--family all: every "
            f"test of the table, none: no correction)"
        )
    if family == "all":
        return (
            f"significant: Holm-adjusted p < {alpha:g}, family = every test of the table "
            f"({tests * measures} tests: {tests} run(s) × {measures} measure(s))"
        )
    return f"significant: p < {alpha:g}, no correction for multiple comparisons"


# ------------------------------------------------------------------ the paper table


@dataclass
class PairwiseTable:
    """Means per run and measure, each marked with the runs it significantly beats."""

    runs: list[str]
    measures: list[str]
    means: dict[tuple[str, str], float]
    beats: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # letters
    test: str = "t"
    family: str = "measure"
    alpha: float = ALPHA
    digits: int = 3

    def letter(self, run: str) -> str:
        return LETTERS[self.runs.index(run)]

    def footnote(self) -> str:
        pairs = len(self.runs) * (len(self.runs) - 1) // 2
        fam = {
            "measure": f"Holm-adjusted within each measure over its {pairs} pairs of runs",
            "all": f"Holm-adjusted over all {pairs * len(self.measures)} tests of the table",
            "none": "no correction for multiple comparisons",
        }[self.family]
        return (
            f"Superscripts: the runs a mean is significantly better than "
            f"({TEST_NAMES.get(self.test, self.test)}, {fam}, p < {self.alpha:g})."
        )

    def _score(self, run: str, measure: str) -> str:
        return f"{self.means[(run, measure)]:.{self.digits}f}"

    def _best(self, measure: str) -> set[str]:
        sign = better_sign(measure)
        values = {r: sign * round(self.means[(r, measure)], self.digits) for r in self.runs}
        top = max(values.values())
        return {r for r, v in values.items() if v == top}

    def to_text(self) -> str:
        rows = [["#", "run", *self.measures]]
        for run in self.runs:
            marks = {
                m: "".join(SUPERSCRIPTS[x] for x in self.beats[(run, m)]) for m in self.measures
            }
            rows.append(
                [self.letter(run), run, *(self._score(run, m) + marks[m] for m in self.measures)]
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join([*lines, self.footnote()])

    def to_markdown(self) -> str:
        head = ["#", "run", *self.measures]
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * len(head)) + "|"]
        for run in self.runs:
            cells = []
            for m in self.measures:
                score = self._score(run, m)
                score = f"**{score}**" if run in self._best(m) else score
                marks = "".join(self.beats[(run, m)])
                cells.append(score + (f"<sup>{marks}</sup>" if marks else ""))
            lines.append("| " + " | ".join([self.letter(run), _md(run), *cells]) + " |")
        return "\n".join([*lines, "", self.footnote()])

    def to_latex(self, caption: str = "", label: str = "tab:memlab") -> str:
        cols = "cl" + "c" * len(self.measures)
        head = " & ".join(["\\#", "Run", *(_tex(m) for m in self.measures)]) + " \\\\"
        lines = [
            "% needs \\usepackage{booktabs}",
            "\\begin{table}[t]",
            "\\centering",
            f"\\caption{{{_tex(caption or self.footnote())}}}",
            f"\\label{{{label}}}",
            f"\\begin{{tabular}}{{{cols}}}",
            "\\toprule",
            head,
            "\\midrule",
        ]
        for run in self.runs:
            cells = []
            for m in self.measures:
                score = self._score(run, m)
                score = f"\\textbf{{{score}}}" if run in self._best(m) else score
                marks = "".join(self.beats[(run, m)])
                cells.append(score + (f"$^{{{marks}}}$" if marks else ""))
            lines.append(" & ".join([self.letter(run), _tex(run), *cells]) + " \\\\")
        lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
        return "\n".join(lines)


def pairwise_table(
    perquery: pd.DataFrame,
    runs: Sequence[str],
    measures: Sequence[str],
    *,
    test: str = "t",
    family: str = "measure",
    alpha: float = ALPHA,
    seed: int = 0,
) -> PairwiseTable:
    """Every pair of ``runs`` tested on every measure (paired over common queries)."""
    import pandas as pd

    from memlab.eval.stats import paired as stats

    check_family(family)
    if len(runs) > len(LETTERS):
        raise ConfigError(f"a table marks at most {len(LETTERS)} runs; compare fewer")
    runs = list(runs)
    wide = perquery.pivot_table(index=["measure", "query_id"], columns="run", values="value")
    present = set(wide.index.get_level_values(0))
    measures = [m for m in measures if m in present]
    table = PairwiseTable(runs, measures, {}, test=test, family=family, alpha=alpha)
    tests = []
    for m in measures:
        part = wide.loc[m]
        for run in runs:
            table.means[(run, m)] = float(part[run].mean()) if run in part else float("nan")
            table.beats[(run, m)] = []
        for a, b in itertools.combinations(runs, 2):
            if a not in part or b not in part:
                continue
            both = part[[a, b]].dropna()
            x, y = both[a].to_numpy(), both[b].to_numpy()
            p = stats.paired_t(x, y) if test == "t" else stats.fisher_randomisation(x, y, seed=seed)
            tests.append({"measure": m, "a": a, "b": b, "p": p, "delta": float((y - x).mean())})
    if tests:
        done = pd.DataFrame(tests)
        keys = family_keys(done, family)
        adjusted = done["p"].copy()
        if family != "none":
            for _, rows in done.groupby(keys, sort=False):
                adjusted[rows.index] = stats.holm(rows["p"].tolist())
        for row, p_adj in zip(done.itertuples(index=False), adjusted, strict=True):
            if p_adj < alpha and row.delta != 0:
                b_better = row.delta * better_sign(str(row.measure)) > 0
                winner, loser = (row.b, row.a) if b_better else (row.a, row.b)
                table.beats[(str(winner), str(row.measure))].append(table.letter(str(loser)))
    for key in table.beats:
        table.beats[key].sort()
    return table


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def _tex(text: str) -> str:
    out = text
    for ch, esc in (("\\", "\\textbackslash{}"), ("&", "\\&"), ("%", "\\%"), ("_", "\\_")):
        out = out.replace(ch, esc)
    for ch in "#$":
        out = out.replace(ch, "\\" + ch)
    return out
