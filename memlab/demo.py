"""``memlab demo``: index the small shipped memory at its logical times and show searches.

Each search prints its hits and the stage-by-stage trace, so a newcomer sees
decay, the evergreen supplement, the content-free filter, MMR and a degraded
(FTS-only) search on real SQLite.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from memlab.cli.engine import parse_time, print_result
from memlab.config import MmrConfig, SearchConfig
from memlab.embeddings.registry import get_embedder
from memlab.search.pipeline import search
from memlab.store.store import MemoryStore


def demo_source() -> Path:
    return Path(str(resources.files("memlab") / "data" / "demo"))


def prepare_demo(dest: Path) -> tuple[Path, dict[str, Any]]:
    """Copy the demo memory into ``dest``; return the memory root and the demo plan."""
    src = demo_source()
    plan = json.loads((src / "files.json").read_text(encoding="utf-8"))
    root = dest / "memory"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(src / "memory", root)
    return root, plan


def run_demo(out: str | None = None) -> int:
    dest = Path(out) if out else Path(tempfile.mkdtemp(prefix="memlab-demo-"))
    dest.mkdir(parents=True, exist_ok=True)
    root, plan = prepare_demo(dest)
    times = {path: parse_time(ts) or 0.0 for path, ts in plan["files"].items()}
    now = parse_time(plan["as_of"]) or 0.0
    index_path = dest / "index.sqlite"
    if index_path.exists():
        index_path.unlink()
    with MemoryStore.open(root, index_path=index_path, embedder=get_embedder("hash")) as store:
        report = store.replay(times)
        stats = store.index.stats()
        print(f"memlab demo — memory at {root}")
        print(
            f"indexed {len(report.outcomes)} files at their logical times: {stats.chunks} chunks "
            f"{stats.by_source}; {report.embedded} vectors (hash embedder)"
        )
        print(f"SQLite {store.index.connection.versions()}; searching as of {plan['as_of']}\n")
        base = SearchConfig(vectors=False)
        for item in plan["searches"]:
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
                result = search(store, item["query"], cfg, now, trace=True, record_access=False)
                print_result(result, cfg, explain=True)
            print()
    return 0
