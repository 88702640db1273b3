"""The live demos of the tour: sync-on-search, degradation, MMR off and on, access boost.

* ``edit_memory`` / ``remove_memory`` change a file on disk and wait for the
  watcher to put it in the dirty set; ``live_search`` then shows that the
  search reindexed (or deleted) it *before* the query ran (SPEC §3).
* ``degradation`` runs one query with a working and with a failing embedder:
  the failure yields FTS-only hits, a ``degraded`` flag and its reason, never
  a failed search (DESIGN invariant 5).
* ``mmr_side_by_side`` shows the same query with MMR off and at several λ.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from memlab.embeddings.registry import get_embedder
from memlab.eval.measures import redundancy
from memlab.retrieval.pipeline import Hit, SearchResult, search
from memlab.store.layout import flush_separator
from memlab.workbench.display import Panel
from memlab.workbench.tour import Demo
from memlab.workbench.traces import short_id


def hits_frame(hits: Sequence[Hit]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "rank": i,
                "score": h.score,
                "source": h.source,
                "chunk": short_id(h.chunk_id),
                "text": " ".join(h.snippet.split())[:90],
            }
            for i, h in enumerate(hits, start=1)
        ],
        columns=["rank", "score", "source", "chunk", "text"],
    )


def _wait_for(demo: Demo, rel: str, wait: float) -> tuple[bool, float]:
    start = time.monotonic()
    while time.monotonic() - start < wait:
        if rel in demo.store.dirty.snapshot():
            return True, time.monotonic() - start
        time.sleep(0.02)
    return False, wait


def _after_change(demo: Demo, rel: str, what: str, wait: float) -> Panel:
    seen, after = _wait_for(demo, rel, wait) if demo.store.watcher else (False, 0.0)
    notes = [what]
    if seen:
        notes.append(f"the watcher reported it after {after:.2f} s; nothing is reindexed yet")
    else:
        demo.store.scan_changes()
        notes.append("no watcher event arrived; a stat scan marked the file dirty instead")
    notes.append(f"dirty set now: {sorted(demo.store.dirty.snapshot())}")
    return Panel("sync-on-search: a file changed", notes)


def edit_memory(demo: Demo, path: str, text: str, append: bool = False, wait: float = 3.0) -> Panel:
    """Write (or append to) a memory file, as an agent flushing a session would."""
    target = demo.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    if append and target.exists():
        body = target.read_text(encoding="utf-8") + flush_separator(demo.now) + text
    else:
        body = text
    target.write_text(body, encoding="utf-8")
    verb = "appended to" if append else "wrote"
    return _after_change(demo, path, f"{verb} {path} ({len(body.encode())} bytes)", wait)


def remove_memory(demo: Demo, path: str, wait: float = 3.0) -> Panel:
    """Delete a memory file; the next search drops its chunks before it runs."""
    (demo.root / path).unlink()
    return _after_change(demo, path, f"deleted {path}", wait)


def live_search(demo: Demo, query: str, overrides: Mapping[str, Any] | None = None) -> Panel:
    """A search as the agent runs it: sync first, then the query (no access counting)."""
    config = demo.config(overrides)
    result = search(demo.store, query, config, demo.now, record_access=False)
    return Panel(f"search {query!r}", _sync_notes(result), [("hits", hits_frame(result.hits))])


def _sync_notes(result: SearchResult) -> list[str]:
    report = result.sync
    if report is None or not report.ran:
        lost = report is not None and report.claim_lost
        return [
            "sync: the reindex claim was lost; the dirty set waits"
            if lost
            else "sync: nothing dirty"
        ]
    done = [f"{o.path}: {o.action} (+{o.added} ~{o.updated} -{o.removed})" for o in report.outcomes]
    return [
        "sync ran before the query: " + ("; ".join(done) or "nothing to reindex"),
        f"embedded {report.embedded} new chunk(s)",
    ]


def degradation(demo: Demo, query: str, failing: str = "faulty:raise:hash") -> Panel:
    """The same query with the demo's embedder and with one that always fails."""
    panel = Panel(f"degradation: {query!r}")
    working = demo.store.embedder
    try:
        for label, provider in (("working embedder", working), (failing, get_embedder(failing))):
            demo.store.embedder = provider
            result = search(demo.store, query, demo.config(), demo.now, record_access=False)
            reasons = "; ".join(result.reasons) or "-"
            panel.notes.append(f"{label}: degraded={result.degraded} ({reasons})")
            panel.add(f"hits with the {label}", hits_frame(result.hits))
    finally:
        demo.store.embedder = working
    return panel


def mmr_side_by_side(
    demo: Demo,
    query: str,
    lambdas: Sequence[float] = (0.7, 0.5),
    overrides: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Hits of ``query`` with MMR off and at each λ, one column per setting.

    The last row is the redundancy of each list: the mean pairwise Jaccard of
    the returned snippets' token sets (lower = more diverse).
    """
    settings: list[tuple[str, dict[str, Any]]] = [("MMR off", {"mmr.enabled": False})]
    settings += [(f"MMR λ={lam}", {"mmr.enabled": True, "mmr.lambda": lam}) for lam in lambdas]
    columns: dict[str, list[str]] = {}
    for label, extra in settings:
        config = demo.config({**(overrides or {}), **extra})
        result = search(demo.store, query, config, demo.now, record_access=False)
        cells = [f"{short_id(h.chunk_id)} ({h.score:.2f})" for h in result.hits]
        cells.append(f"redundancy {redundancy([h.snippet for h in result.hits]) or 0.0:.2f}")
        columns[label] = cells
    depth = max(len(v) for v in columns.values())
    table = {k: v[:-1] + [""] * (depth - len(v)) + v[-1:] for k, v in columns.items()}
    return pd.DataFrame(table, index=[*range(1, depth), "redundancy"])


def access_boost_demo(demo: Demo, query: str, searches: int = 5) -> pd.DataFrame:
    """Search ``searches`` times *with* access counting: each returned chunk's boost grows."""
    rows = []
    for n in range(1, searches + 1):
        result = search(demo.store, query, demo.config(), demo.now, trace=True)
        for row in result.trace or []:
            if row["final_rank"]:
                rows.append(
                    {
                        "search": n,
                        "chunk": short_id(row["chunk_id"]),
                        "boost": row["boost"],
                        "score": row["display"],
                    }
                )
    return pd.DataFrame(rows)
