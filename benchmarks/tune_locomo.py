"""Tune memlab's ranking on the development half of LoCoMo, report it on held-out turns.

The data: ``locomo_dev.json`` (5 of LoCoMo's 10 conversations, 1,020 questions;
the other 5 are kept aside by the project). Inside it:

* **split** — the conversations sorted by ``sample_id``: the first three are the
  tuning split, the last two the test split (whole conversations, so no test
  question shares a memory with a tuning question);
* **grid** — the ``standard-ir`` profile (no decay, ``min_score`` 0, 1,000 results,
  porter) under ``--protocol locomo`` (one turn per chunk, turn-level evidence
  recall), MiniLM vectors, over the merge strategy (``grok`` = c0, ``openclaw``
  without c0's floor, ``rrf``, ``basic-memory``) × the vector weight (0.5, 0.7,
  0.9; text weight 1 − v), plus FTS alone; every configuration ranks the same
  candidates (one replay per conversation);
* **choice rule** — the highest mean of R@5, R@10, R@25 and R@50 over the tuning
  split's scored questions (ties: the earlier grid point);
* **report** — the chosen configuration, c0's hybrid and FTS on the test split,
  R@5/10/25/50 in percent, beside DRAGON's published numbers (Maharana et al.,
  ACL 2024, Table 3: all 10 conversations, so not the same questions).

    python benchmarks/tune_locomo.py [--data ../shared/data/locomo/locomo_dev.json]
        [--embedder minilm] [--work DIR] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"
DRAGON = {"R@5": 56.7, "R@10": 66.2, "R@25": 76.7, "R@50": 82.7}
KS = tuple(DRAGON)
STRATEGIES = ("grok", "openclaw", "rrf", "basic-memory")
VECTOR_WEIGHTS = (0.5, 0.7, 0.9)


def split(conversations: list[str]) -> tuple[list[str], list[str]]:
    """Tuning and test conversations: the first three and the rest, by sample id."""
    ordered = sorted(conversations)
    return ordered[:3], ordered[3:]


def grid() -> dict[str, Any]:
    """Name -> search config (the standard-ir profile's, changed on the grid's axes)."""
    from memlab.config import profile

    base = profile("standard-ir").search
    runs: dict[str, Any] = {"fts": replace(base, vectors=False)}
    for strategy in STRATEGIES:
        for v in VECTOR_WEIGHTS:
            runs[f"{strategy}-v{v:g}"] = replace(
                base, strategy=strategy, vector_weight=v, text_weight=round(1 - v, 3)
            )
    return runs


def recall_table(dataset: Any, runs: dict[str, Any], embedder: str, work: Path) -> Any:
    """R@k (percent) of every run on ``dataset`` under the LoCoMo protocol."""
    from memlab.eval.protocols import get_protocol, prepare_protocol, run_protocol
    from memlab.eval.runs.rankers import Run

    locomo = get_protocol("locomo")
    prepared = prepare_protocol(dataset, locomo, embedder=embedder, work_dir=work)
    result = run_protocol(prepared, {n: Run(c) for n, c in runs.items()}, locomo)
    table = result.table(KS) * 100.0
    table["NumQ"] = table["NumQ"] / 100.0
    cats = result.categories[result.categories["measure"].isin(KS)]
    return table, cats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--embedder", default="minilm")
    ap.add_argument("--work", type=Path)
    ap.add_argument("--markdown", type=Path)
    args = ap.parse_args()
    from memlab.datasets import load_dataset
    from memlab.datasets.importers import import_dataset

    work = args.work or Path(tempfile.mkdtemp(prefix="tune-locomo-"))
    dest = work / "locomo-dev"
    if not (dest / "manifest.json").is_file():
        import_dataset("locomo", args.data, dest)
    ds = load_dataset(dest)
    tune, test = split(list(ds.groups))
    runs = grid()
    dev_table, _ = recall_table(
        ds.select(where=lambda q: q.group in tune), runs, args.embedder, work / "replays"
    )
    score = dev_table[list(KS)].mean(axis=1)
    chosen = str(score.idxmax())
    held = {"chosen": runs[chosen], "c0 hybrid": runs["grok-v0.7"], "fts": runs["fts"]}
    test_table, test_cats = recall_table(
        ds.select(where=lambda q: q.group in test), held, args.embedder, work / "replays"
    )
    lines = [
        f"tuning conversations {', '.join(tune)}; test conversations {', '.join(test)}",
        "",
        "tuning split (R@k, %):",
        dev_table.assign(mean=score).round(1).to_markdown(),
        "",
        f"chosen: {chosen}",
        "",
        "test split (R@k, %), DRAGON as published (all 10 conversations):",
        test_table.round(1).to_markdown(),
        "| DRAGON (published) | " + " | ".join(f"{DRAGON[k]:.1f}" for k in KS) + " | |",
        "",
        "test split per category (R@k, %):",
        test_cats.assign(mean=test_cats["mean"] * 100)
        .pivot_table(index=["run", "category"], columns="measure", values="mean")[list(KS)]
        .round(1)
        .to_markdown(),
    ]
    text = "\n".join(lines)
    print(text)
    print(json.dumps({"chosen": chosen, "config": str(runs[chosen])}))
    if args.markdown:
        args.markdown.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
