"""The export folder of a sweep's decision: ``memlab sweep … --export DIR``.

The chosen configuration goes out as ``chosen.yaml`` (its profile, the search keys
that differ from it, and the index options that turn the dataset's own memory
into the one it was measured on), both agents' settings, ``mapping.md``,
``decision.md``, the Pareto fronts (``fronts.png``, ``fronts.csv``) and
``split.json`` (the dev and holdout query ids, so the holdout numbers can be
recomputed from ``memlab compare --out``'s perquery.csv).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from memlab.errors import ConfigError
from memlab.eval.replay.index_options import index_options_of
from memlab.eval.replay.memory import memory_for
from memlab.export.export_folder import Exported, write_export
from memlab.safefs import write_atomic
from memlab.sweep.decision_text import decision_markdown

if TYPE_CHECKING:
    from memlab.sweep.decision import Decision
    from memlab.sweep.results import SweepResult

SPLIT_FILE = "split.json"


FRONTS_PNG = "fronts.png"
FRONTS_CSV = "fronts.csv"


def write_fronts(decision: Decision, folder: str | Path) -> list[Path]:
    """The Pareto fronts as a plot (``fronts.png``) and a table (``fronts.csv``: one row
    per front member, the cost it is on in ``cost``)."""
    import pandas as pd

    from memlab.sweep.plots import plot_fronts

    dest = Path(folder)
    dest.mkdir(parents=True, exist_ok=True)
    frames = []
    for cost in decision.fronts:
        table = decision.front_table(cost).rename(columns={f"{cost} {decision.chosen_on}": "value"})
        frames.append(table.assign(cost=cost))
    csv = pd.concat(frames, ignore_index=True).rename(columns={"": "mark"}).to_csv(index=False)
    write_atomic(dest / FRONTS_CSV, csv, root=dest)
    png = dest / FRONTS_PNG
    plot_fronts(decision).savefig(png, dpi=110)
    return [dest / FRONTS_CSV, png]


def reproduce_command(dataset: str, dest: Path, embedder: str | None = None) -> str:
    """The compare command that scores the exported configuration beside fts and hybrid."""
    args = ["memlab", "compare", dataset, "--runs", f"fts,hybrid,chosen={dest / 'chosen.yaml'}"]
    if embedder:
        args += ["--embedder", embedder]
    return " ".join(shlex.quote(a) for a in args)


def export_sweep(
    result: SweepResult,
    decision: Decision,
    dest: str | Path,
    *,
    profile_name: str,
    dataset: str = "",
    embedder: str | None = None,
) -> Exported:
    """Write the export folder of ``decision`` (see the module docstring)."""
    folder = Path(dest)
    sweep = result.sweep
    if sweep is None:
        raise ConfigError("an export needs the sweep engine (run the sweep again)")
    point = decision.point
    memory = sweep.engine_of(point).memory
    prepared = sweep.prepared
    options = index_options_of(memory, memory_for(prepared.dataset))
    name = dataset or prepared.dataset.name
    command = reproduce_command(name, folder, embedder)
    row = decision.candidates.iloc[decision.chosen]
    m = decision.rule.measure
    numbers = f"{m} {float(row[m]):.4f} over all queries" if decision.has_holdout else ""
    if decision.has_holdout:
        numbers += f", {float(row[f'{m}:holdout']):.4f} over the holdout queries of {SPLIT_FILE}"
    reproduce = f"{command}\n# chosen: {numbers or f'{m} {float(row[m]):.4f}'}"
    digest = prepared.dataset.digest.removeprefix("sha256:")[:12]
    header = (
        f"chosen by memlab sweep on {name} ({digest}): "
        f"{row['configuration']}\nrule: {decision.rule_text}"
    )
    done = write_export(
        folder,
        point.config,
        index=memory.index,
        profile_name=profile_name,
        index_options=options,
        header=header,
        decision_md=decision_markdown(decision, reproduce=reproduce, plot=FRONTS_PNG),
        notes=[
            f"the queries tagged '{tag}' were measured on their own index ({ix.tokenizer}; "
            "the dataset's per-tag index, an evaluation setting): the agents' files hold "
            "one index"
            for tag, ix in memory.by_tag
        ],
    )
    sp = result.split
    done.written.extend(write_fronts(decision, folder))
    split = {
        "share": sp.share,
        "seed": sp.seed,
        "stratified": sp.stratified,
        "dev": list(sp.dev),
        "holdout": list(sp.holdout),
    }
    write_atomic(folder / SPLIT_FILE, json.dumps(split, indent=2) + "\n", root=folder)
    done.written.append(folder / SPLIT_FILE)
    return done
