"""Published numbers beside memlab's: the reference file and the "published" table.

The user copies the numbers to compare with from a paper into a small YAML file
(nothing is downloaded)::

    source: Wu et al., ICLR 2025, Table 3       # where the numbers come from
    unit: session                               # optional: checked against the run's
    questions: LongMemEval_S, 470 questions     # optional: how the paper counted
    references:
      - system: BM25 (flat, session)
        values: {recall_all@5: 0.634, ndcg_any@5: 0.589}
      - system: Contriever
        category: multi-session                 # optional: a per-category number
        values: {recall_all@5: 0.701}

Measure names are the protocol's (``recall_all@5``, ``R@10``, ``nDCG@10``), values
fractions in [0, 1]. ``published_table`` puts memlab's runs (same measures, same
categories) and the references in one table, and the header states the unit and
the question set of both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlab.datafile import load_data
from memlab.errors import ConfigError
from memlab.eval.protocols import paper_measures as pm
from memlab.eval.protocols.spec import Protocol

if TYPE_CHECKING:  # pandas loads when a table is built
    import pandas as pd

FILE_KEYS = ("source", "unit", "questions", "references")
ROW_KEYS = ("system", "category", "values", "note")


@dataclass(frozen=True)
class Reference:
    system: str
    values: Mapping[str, float]
    category: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class References:
    path: Path
    rows: tuple[Reference, ...]
    source: str | None = None
    unit: str | None = None
    questions: str | None = None

    @property
    def measures(self) -> list[str]:
        return list(dict.fromkeys(m for r in self.rows for m in r.values))


def load_references(path: str | Path, protocol: Protocol, unit: str) -> References:
    """Read and check a reference file for ``protocol`` evaluated at ``unit``."""
    file = Path(path)
    data = load_data(file, what="published numbers file")
    where = f"published numbers file {file}"
    if not isinstance(data, Mapping) or not isinstance(data.get("references"), list):
        raise ConfigError(f"{where}: expected a mapping with a 'references' list (see --help)")
    _known_keys(data, FILE_KEYS, where)
    if data.get("unit") is not None and data["unit"] != unit:
        raise ConfigError(
            f"{where}: the numbers are at unit '{data['unit']}', this evaluation at '{unit}'; "
            f"compare like with like (--level)"
        )
    rows = tuple(
        _row(item, protocol, f"{where}: references[{i}]")
        for i, item in enumerate(data["references"])
    )
    if not rows:
        raise ConfigError(f"{where}: 'references' is empty; list at least one system")
    return References(
        file,
        rows,
        _text(data.get("source")),
        _text(data.get("unit")),
        _text(data.get("questions")),
    )


def _row(item: Any, protocol: Protocol, where: str) -> Reference:
    if not isinstance(item, Mapping) or not isinstance(item.get("values"), Mapping):
        raise ConfigError(f"{where}: expected {{system: NAME, values: {{MEASURE: VALUE}}}}")
    _known_keys(item, ROW_KEYS, where)
    values: dict[str, float] = {}
    for name, value in item["values"].items():
        pm.parse(str(name))
        if str(name) not in protocol.measures:
            raise ConfigError(
                f"{where}: {name} is not a {protocol.name} measure; "
                f"use one of {', '.join(protocol.measures)}"
            )
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not ok or not math.isfinite(value) or not 0 <= value <= 1:
            hint = f" (write {value / 100:g} for {value:g}%)" if ok and 1 < value <= 100 else ""
            raise ConfigError(f"{where}: {name} = {value!r} is not a fraction in [0, 1]{hint}")
        values[str(name)] = float(value)
    return Reference(
        _text(item.get("system")) or "?",
        values,
        _text(item.get("category")),
        _text(item.get("note")),
    )


def _known_keys(data: Mapping[str, Any], keys: tuple[str, ...], where: str) -> None:
    extra = [str(k) for k in data if k not in keys]
    if extra:
        raise ConfigError(f"{where}: unknown key '{extra[0]}'; keys are {', '.join(keys)}")


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def published_table(
    aggregated: pd.DataFrame, categories: pd.DataFrame, runs: list[str], refs: References
) -> pd.DataFrame:
    """memlab's runs beside the references: one row per (system, category), one column
    per measure the references name; ``kind`` says which is which."""
    import pandas as pd

    measures = refs.measures
    cats = list(dict.fromkeys(r.category for r in refs.rows))
    overall = aggregated.set_index(["run", "measure"])["value"]
    by_cat = categories.set_index(["run", "category", "measure"])["mean"]
    rows = []
    for category in cats:
        for run in runs:
            row: dict[str, Any] = {"system": run, "kind": "memlab", "category": category or "all"}
            for m in measures:
                key = (run, m) if category is None else (run, category, m)
                source = overall if category is None else by_cat
                row[m] = float(source[key]) if key in source.index else math.nan
            rows.append(row)
        for ref in (r for r in refs.rows if r.category == category):
            row = {"system": ref.system, "kind": "published", "category": category or "all"}
            row.update({m: ref.values.get(m, math.nan) for m in measures})
            rows.append(row)
    return pd.DataFrame(rows, columns=["system", "kind", "category", *measures])
