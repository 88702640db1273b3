"""Replaying real sessions: a CSV of ``user,start,end[,subagent][,bytes][,dream_at]``.

Times are unix seconds or ISO 8601 (naive times are UTC); sub-agent sessions
count but write no log; a missing ``bytes`` column draws log sizes from the
parameters' distribution. Errors name the rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from memlab.dream.sim.fleet import Fleet
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.sessions import Sessions
from memlab.errors import DatasetError
from memlab.timefmt import DAY

if TYPE_CHECKING:  # imported by load_events: importing the simulator needs no pandas
    import pandas as pd


def _seconds(column: pd.Series, name: str) -> np.ndarray:
    """Unix seconds from numbers or ISO 8601 strings (naive times are UTC); blanks are NaN."""
    import pandas as pd

    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float, copy=True)
    is_text = np.isnan(values) & column.notna().to_numpy()
    text = column[is_text]
    if len(text):
        parsed = pd.to_datetime(text.astype(str), utc=True, errors="coerce", format="ISO8601")
        bad = text[parsed.isna()]
        if len(bad):
            rows = [f"row {i + 2}: {v!r}" for i, v in bad.head(5).items()]
            raise DatasetError(
                f"events: cannot read column '{name}' as times (unix seconds or ISO 8601)", rows
            )
        seconds = (parsed - pd.Timestamp(0, tz="UTC")).dt.total_seconds().to_numpy()
        values[is_text] = seconds
    return values


def load_events(path: str | Path, params: SimParams) -> Fleet:
    """Sessions from a CSV (``user,start,end`` plus optional ``subagent``, ``bytes``,
    ``dream_at``; times as unix seconds or ISO 8601), and the days it spans."""
    import pandas as pd

    df = pd.read_csv(path)
    missing = [c for c in ("user", "start", "end") if c not in df.columns]
    if missing:
        raise DatasetError(
            f"events file {path} lacks column(s) {', '.join(missing)}; "
            "expected user,start,end[,subagent][,bytes][,dream_at]"
        )
    start, end = _seconds(df["start"], "start"), _seconds(df["end"], "end")
    backwards = np.flatnonzero(~(end >= start))
    if backwards.size:
        raise DatasetError(
            f"events file {path}: a session ends before it starts",
            [f"row {i + 2}" for i in backwards[:5]],
        )
    t0 = float(np.floor(start.min()))
    codes, names = pd.factorize(df["user"].astype(str), sort=True)
    sub = np.zeros(len(df), dtype=bool)
    if "subagent" in df.columns:
        sub = df["subagent"].astype(str).str.lower().isin(["1", "true", "yes"]).to_numpy()
    if "bytes" in df.columns:
        size = df["bytes"].to_numpy(dtype=float)
    else:
        sigma = params.session_bytes_sigma
        rng = np.random.default_rng([params.seed, 2])
        size = rng.lognormal(np.log(params.session_bytes) - sigma**2 / 2, sigma, len(df))
    manual = np.full(len(df), np.nan)
    if "dream_at" in df.columns:
        manual = _seconds(df["dream_at"], "dream_at")
    main = np.flatnonzero(~sub)
    order = main[np.lexsort((start[main], codes[main]))]

    def to_ms(t: np.ndarray) -> np.ndarray:
        return np.rint((t - t0) * 1000.0).astype(np.int64)

    s_ms, e_ms, m = to_ms(start[order]), to_ms(end[order]), manual[order]
    m_ms = np.where(np.isfinite(m), to_ms(np.nan_to_num(m, nan=t0)), -1)
    m_ms = np.where((m_ms >= s_ms) & (m_ms < e_ms), m_ms, -1)
    users = len(names)
    sessions = Sessions(
        users,
        codes[order].astype(np.int64),
        s_ms,
        e_ms,
        np.maximum(1, np.rint(size[order])).astype(np.int64),
        m_ms,
        np.bincount(codes[sub], minlength=users).astype(np.int64),
        t0,
    )
    return Fleet.from_sessions(sessions, float(max((end.max() - t0) / DAY, 1 / 24)))
