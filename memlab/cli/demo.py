"""``memlab demo``: index the small shipped memory at its logical times and show searches.

Each search prints its hits and the stage-by-stage trace, so a newcomer sees
decay, evergreen memory, MMR, the content-free filter and a degraded (FTS-only)
search on real SQLite; a legend of the trace's columns closes the output.

Every case of the plan (``memlab/data/demo/files.json``) states what it shows and
what to expect (``expect``); ``case_problems`` checks a case's results against it,
so a heading that no longer matches its output is a failing test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from memlab.config import MmrConfig, SearchConfig, with_overrides
from memlab.demo import DemoPlan, open_demo_store
from memlab.embeddings.registry import get_embedder
from memlab.retrieval.explain import format_legend, format_result
from memlab.retrieval.pipeline import SearchResult, search
from memlab.scratch import scratch_dir
from memlab.store.store import MemoryStore
from memlab.timefmt import format_iso

MMR_LAMBDA = 0.5


@dataclass
class DemoCase:
    """One search of the plan and what it returned (the plan's configuration first;
    with MMR or with decay off, the same search so changed second)."""

    plan: Mapping[str, Any]
    results: list[tuple[SearchConfig, SearchResult]]


def run_demo(out: str | None = None) -> int:
    dest = Path(out) if out else scratch_dir("memlab-demo-")
    dest.mkdir(parents=True, exist_ok=True)
    store, plan, report = open_demo_store(dest, get_embedder("hash"))
    with store:
        stats = store.index.stats()
        kept = "" if out else " (removed when the demo ends; --out DIR keeps a copy)"
        print(f"memlab demo — memory at {plan.root}{kept}")
        print(
            f"indexed {len(report.outcomes)} files at their logical times: {stats.chunks} "
            f"chunks {stats.by_source}; {report.embedded} vectors (hash embedder)"
        )
        print(
            f"SQLite {store.index.connection.versions()}; searching as of "
            f"{format_iso(plan.as_of)} with c0's settings (grok-c0), text only unless a "
            "heading says otherwise\n"
        )
        for item in plan.searches:
            print(f"== {item['note']}", flush=True)
            for cfg, result in run_case(store, plan, item).results:
                if cfg.mmr.enabled:
                    print(f"-- with MMR (λ {cfg.mmr.lambda_:g}):")
                elif cfg.half_life_days is None:
                    print("-- with decay off (half_life_days null):")
                print(format_result(result, cfg, explain=True))
            print()
    print(format_legend())
    return 0


def run_case(store: MemoryStore, plan: DemoPlan, item: Mapping[str, Any]) -> DemoCase:
    """One search of the plan, read-only (no access is recorded)."""
    base = with_overrides(SearchConfig(vectors=False), item.get("set", {}))
    configs = [base]
    if item.get("mmr"):
        configs.append(replace(base, mmr=MmrConfig(enabled=True, lambda_=MMR_LAMBDA)))
    if item.get("decay_off"):
        configs.append(replace(base, half_life_days=None))
    if item.get("embedder"):
        store.embedder = get_embedder(item["embedder"])
        configs = [replace(base, vectors=True)]
    results = [
        (cfg, search(store, item["query"], cfg, plan.as_of, trace=True, record_access=False))
        for cfg in configs
    ]
    return DemoCase(item, results)


def demo_cases(dest: Path) -> list[DemoCase]:
    """Index the demo memory into ``dest`` and run every case of its plan."""
    store, plan, _ = open_demo_store(dest, get_embedder("hash"))
    with store:
        return [run_case(store, plan, item) for item in plan.searches]


def case_problems(case: DemoCase) -> list[str]:
    """Where a case's results differ from its plan's ``expect`` (empty: as announced)."""
    expect = case.plan.get("expect", {})
    result = case.results[0][1]
    hits = [h.chunk_id for h in result.hits]
    rows = {r["chunk_id"]: r for r in result.trace or []}
    problems = []

    def check(ok: bool, what: str) -> None:
        if not ok:
            problems.append(f"{case.plan['query']!r}: {what}")

    if "first" in expect:
        check(
            bool(hits) and hits[0].endswith(expect["first"]), f"first hit is not {expect['first']}"
        )
    if "second" in expect:
        check(len(hits) > 1 and hits[1].endswith(expect["second"]), "second hit differs")
    if "below" in expect:
        low = [i for i, h in enumerate(hits) if h.endswith(expect["below"])]
        check(not low or low[0] > 0, f"{expect['below']} is not below the first hit")
    if "hits" in expect:
        check(len(hits) == expect["hits"], f"{len(hits)} hits, not {expect['hits']}")
    if "decay" in expect:
        top = rows.get(hits[0]) if hits else None
        check(top is not None and top["decay"] == expect["decay"], "decay of the first hit")
    for chunk, age in expect.get("ages", {}).items():
        row = next((r for c, r in rows.items() if c.endswith(chunk)), None)
        check(row is not None and round(row["age_days"], 1) == age, f"age of {chunk}")
        check(f"{age:.1f} days" in case.plan["note"], f"the heading states {chunk}'s age")
    if "content_free_top" in expect:
        top_row = (result.trace or [{}])[0]
        check(
            str(top_row.get("chunk_id", "")).endswith(expect["content_free_top"])
            and top_row.get("content_free") is True
            and top_row.get("fts") == 1.0,
            "the best text match is not the content-free chunk",
        )
    if "fts_first" in expect:
        best = [c for c, r in rows.items() if r.get("fts") == 1.0]
        check(
            len(best) == 1 and best[0].endswith(expect["fts_first"]),
            f"the best text match is not {expect['fts_first']}",
        )
    if "decay_off_first" in expect:
        off = [h.chunk_id for h in case.results[-1][1].hits]
        check(
            case.results[-1][0].half_life_days is None
            and bool(off)
            and off[0].endswith(expect["decay_off_first"]),
            f"with decay off, the first hit is not {expect['decay_off_first']}",
        )
    if "mmr_drops" in expect:
        mmr = [h.chunk_id for h in case.results[-1][1].hits]
        check(len(mmr) == len(hits), "MMR returns another number of hits")
        check(not any(h.endswith(expect["mmr_drops"]) for h in mmr), "MMR keeps the near copy")
        check(mmr != hits, "MMR changes nothing")
    if "degraded" in expect:
        check(result.degraded == expect["degraded"], "degraded flag")
    return problems
