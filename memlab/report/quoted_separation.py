"""What the report's summary quotes from a notebook's separation files (``power.csv``,
``reachability_summary.csv``; ``memlab.eval.compare.separation``): the range of the minimum
detectable differences over the comparisons (the most and the least sensitive one: a
comparison of rankers that disagree on many queries detects less), and the first
run's reachability ceiling."""

from __future__ import annotations

import csv
from pathlib import Path


def separation_notes(out_dir: Path, key: str) -> list[str]:
    """Summary lines for the job ``key`` (none when the notebook wrote no separation)."""
    from memlab.eval.compare.separation import FILES  # pandas and the evaluation: only when needed

    notes = []
    power = out_dir / FILES["power"]
    if power.is_file():
        with power.open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        if rows:
            rows.sort(key=_mde)
            best, worst = rows[0], rows[-1]
            notes.append(
                f"{key}: the smallest {worst['measure']} difference detectable at 80% power "
                f"ranges from {_mde(best):.3f} ({_pair(best)}) to {_mde(worst):.3f} "
                f"({_pair(worst)}) over {len(rows)} comparisons ({power.name})"
            )
    reach = out_dir / FILES["summary"]
    if reach.is_file():
        with reach.open(encoding="utf-8") as fh:
            first = next(csv.DictReader(fh), None)
        if first is not None:
            notes.append(
                f"{key}: {first['reachable']} of {first['judged']} judged queries "
                f"({float(first['reachable share']):.1%}) reachable under {first['run']} "
                f"({first['filters']}); {first['answer gone']} answers gone at their time"
            )
    return notes


def _pair(row: dict[str, str]) -> str:
    return f"{row['run']} vs {row['reference']}, {row['view']}"


def _mde(row: dict[str, str]) -> float:
    values = [float(row[k]) for k in ("MDE analytic", "MDE bootstrap") if row.get(k)]
    return max(values) if values else 0.0
