"""``memlab demo``: index the small shipped memory at its logical times and show searches.

Each search prints its hits and the stage-by-stage trace, so a newcomer sees
decay, the evergreen supplement, the content-free filter, MMR and a degraded
(FTS-only) search on real SQLite.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from memlab.config import MmrConfig, SearchConfig
from memlab.demo import open_demo_store
from memlab.embeddings.registry import get_embedder
from memlab.search.explain import format_result
from memlab.search.pipeline import search
from memlab.timefmt import format_iso


def run_demo(out: str | None = None) -> int:
    dest = Path(out) if out else Path(tempfile.mkdtemp(prefix="memlab-demo-"))
    dest.mkdir(parents=True, exist_ok=True)
    store, plan, report = open_demo_store(dest, get_embedder("hash"))
    with store:
        stats = store.index.stats()
        print(f"memlab demo — memory at {plan.root}")
        print(
            f"indexed {len(report.outcomes)} files at their logical times: {stats.chunks} chunks "
            f"{stats.by_source}; {report.embedded} vectors (hash embedder)"
        )
        print(
            f"SQLite {store.index.connection.versions()}; searching as of "
            f"{format_iso(plan.as_of)}\n"
        )
        base = SearchConfig(vectors=False)
        for item in plan.searches:
            print(f"== {item['note']}")
            configs = [base]
            if item.get("mmr"):
                configs.append(replace(base, mmr=MmrConfig(enabled=True, lambda_=0.5)))
            if item.get("embedder"):
                store.embedder = get_embedder(item["embedder"])
                configs = [replace(base, vectors=True)]
            for cfg in configs:
                if cfg.mmr.enabled:
                    print("-- with MMR (λ 0.5):")
                result = search(
                    store, item["query"], cfg, plan.as_of, trace=True, record_access=False
                )
                print(format_result(result, cfg, explain=True))
            print()
    return 0
