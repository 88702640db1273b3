"""A sweep's decision as text: the terminal's lines and ``decision.md``.

Both show the same facts (``memlab.sweep.decision.Decision``): the rule, base and
chosen side by side with CIs and costs, the holdout gain with its paired test,
the optimism measured over repeated splits, the Pareto fronts and the warnings.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from memlab.sweep.caveats import queries
from memlab.sweep.choice import CONSTRAINED_COSTS
from memlab.sweep.decision import Decision

FRONT_ROWS = 12  # rows of a front printed in the terminal (all of them in decision.md)


def gain_line(d: Decision) -> str:
    g = d.gain
    where = "holdout" if d.has_holdout else "all queries"
    if d.keeps_base:
        return (
            "the rule keeps the base profile (no configuration does better within it on "
            f"{'dev' if d.has_holdout else 'all queries'})"
        )
    if g.n == 0:
        return f"gain on {where}: no query scores {g.measure}"
    mde = "undefined (every query ties)" if g.mde is None else f"{g.mde:.4f}"
    return (
        f"gain over the base on {where} ({queries(g.n)}): {g.measure} {g.diff:+.4f} "
        f"[95% CI {g.ci[0]:+.4f}, {g.ci[1]:+.4f}], paired t-test p = {g.p:.3g}; "
        f"wins/ties/losses {g.wins}/{g.ties}/{g.losses}; MDE {mde}"
    )


def optimism_line(d: Decision) -> str | None:
    r = d.resplits
    if r is None or not len(r.table):
        return None
    sd = r.table["optimism"].std(ddof=1) if len(r.table) > 1 else math.nan
    seeds = ", ".join(map(str, r.table["seed"]))
    return (
        f"chosen again on {len(r.table)} other splits (seeds {seeds}): "
        f"dev gain {r.dev_gain:+.4f}, holdout gain {r.holdout_gain:+.4f}, optimism (dev − "
        f"holdout gain) {r.optimism:+.4f}"
        + ("" if math.isnan(sd) else f" ± {sd:.4f} sd")
        + f"; the same configuration {int(r.table['same choice'].sum())} of {len(r.table)} times"
    )


def _front(
    d: Decision, cost: str, rows: int | None, fmt: Callable[[pd.DataFrame], str]
) -> tuple[str, str]:
    """(title, table) of one Pareto front; at most ``rows`` rows (evenly spaced, the base
    and the chosen kept) when given."""
    table = d.front_table(cost)
    if table.empty:
        return f"Pareto front: {d.rule.measure} against {cost} ({d.chosen_on})", (
            f"(none: no query measures {cost} there)"
        )
    note = ""
    if rows is not None and len(table) > rows:
        keep = {round(i * (len(table) - 1) / (rows - 1)) for i in range(rows)}
        marked = set(table.index[table[""] != ""])
        total = len(table)
        table = table.loc[sorted(keep | marked)]
        note = f" ({len(table)} of its {total} configurations shown)"
    return f"Pareto front: {d.rule.measure} against {cost} ({d.chosen_on}){note}", fmt(table)


def decision_text(d: Decision, *, front_rows: int | None = FRONT_ROWS) -> str:
    """The decision for a terminal."""

    def fmt(table: pd.DataFrame) -> str:
        return table.to_string(index=False, float_format=lambda v: f"{v:.4f}")

    lines = [f"rule: {d.rule_text}"]
    lines.append(
        f"{d.choice.n_eligible} of {len(d.candidates)} configurations meet it (the base included)"
    )
    lines.append(f"chosen: {d.candidates.iloc[d.chosen]['configuration']}")
    lines += ["", "base vs chosen", fmt(d.side_by_side_text()), "", gain_line(d)]
    extra = optimism_line(d)
    if extra:
        lines.append(extra)
    for cost in CONSTRAINED_COSTS:
        lines += ["", *_front(d, cost, front_rows, fmt)]
    lines += [""] + [f"warning: {w}" for w in d.warnings]
    return "\n".join(lines).rstrip()


def decision_markdown(
    d: Decision, *, title: str = "Sweep decision", reproduce: str = "", plot: str = ""
) -> str:
    """``decision.md``: the rule, base vs chosen with CIs and costs, the warnings."""

    def md(table: pd.DataFrame) -> str:
        return table.to_markdown(index=False, floatfmt=".4f")

    split = d.split
    parts = [
        f"# {title}",
        "",
        "## Rule",
        "",
        f"{d.rule_text[0].upper()}{d.rule_text[1:]}.",
        "",
        f"{d.choice.n_eligible} of {len(d.candidates)} configurations meet it (the base "
        f"profile included). Queries: {split.get('dev_queries')} dev, "
        f"{split.get('holdout_queries')} holdout (seed {split.get('seed')}, stratified by "
        f"category: {split.get('stratified')}).",
        "",
        "## Base vs chosen",
        "",
        f"Chosen: `{d.candidates.iloc[d.chosen]['configuration']}`.",
        "",
        md(d.side_by_side_text()),
        "",
        gain_line(d)[0].upper() + gain_line(d)[1:] + ".",
    ]
    extra = optimism_line(d)
    if extra:
        parts += ["", extra[0].upper() + extra[1:] + "."]
    parts += ["", "## Warnings", ""]
    parts += [f"* {w}" for w in d.warnings] or ["None."]
    if plot:
        parts += ["", f"![{d.rule.measure} against its costs, the Pareto fronts]({plot})"]
    for cost in CONSTRAINED_COSTS:
        title, table = _front(d, cost, None, md)
        parts += ["", f"## {title}", "", table]
    if reproduce:
        parts += ["", "## Reproduce", "", "```sh", reproduce, "```"]
    return "\n".join(parts) + "\n"
