"""Worker processes for the store race test: ``python -m tests.store.race_worker ROLE …``.

* ``writer ROOT N DONE`` — once three searchers are ready (``DONE.ready-*``), writes
  N session logs with unique facts (and appends to older ones), then creates DONE;
* ``searcher ROOT MODE DONE`` — searches until DONE exists, then once more;
  MODE ``watch`` keeps one store open with the file watcher (sync-on-search),
  ``cli`` runs ``memlab search`` in-process for every query (open, scan, sync, close).

Each prints one JSON line: what it did, and every exception it met.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
import time
import traceback
from pathlib import Path

WS = "proj-1234abcd"


def writer(root: Path, n: int, done: Path) -> dict[str, object]:
    rng = random.Random(1)
    sessions = root / WS / "sessions"
    facts = []
    deadline = time.monotonic() + 120
    while len(list(done.parent.glob(done.name + ".ready-*"))) < 3:
        assert time.monotonic() < deadline, "the searchers never got ready"
        time.sleep(0.01)
    for i in range(n):
        time.sleep(0.005)  # spread the writes over the searches
        fact = f"wfact{i:04d}"
        (sessions / f"2026-02-01-race-{i:04d}.md").write_text(f"# S\n\n- {fact}: written\n")
        facts.append(fact)
        if i and rng.random() < 0.3:
            old = sessions / f"2026-02-01-race-{rng.randrange(i):04d}.md"
            with open(old, "a", encoding="utf-8") as fh:
                fh.write(f"\n- wappend{i:04d}: appended\n")
            facts.append(f"wappend{i:04d}")
    done.touch()
    return {"facts": facts}


def searcher(root: Path, mode: str, done: Path) -> dict[str, object]:
    from memlab.cli import main
    from memlab.retrieval.pipeline import search
    from memlab.store.store import MemoryStore

    rng = random.Random(mode)
    stats: dict[str, object] = {"searches": 0, "errors": [], "reasons": []}
    store = MemoryStore.open(root, WS, watch=True) if mode.startswith("watch") else None
    with contextlib.redirect_stdout(io.StringIO()):  # imports, caches
        main(["search", str(root), "warm up", "--workspace", WS, "--json"])
    (done.parent / f"{done.name}.ready-{mode}").touch()
    last = False
    while not last:
        last = done.exists()
        query = f"wfact{rng.randrange(200):04d} written"
        try:
            if store is not None:
                result = search(store, query, None, record_access=bool(rng.random() < 0.5))
                stats["reasons"] += result.reasons  # type: ignore[operator]
            else:
                err = io.StringIO()
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                    code = main(["-v", "search", str(root), query, "--workspace", WS])
                if code != 0:
                    stats["errors"].append(f"exit {code}: {err.getvalue()}")  # type: ignore[attr-defined]
        except Exception:
            stats["errors"].append(traceback.format_exc())  # type: ignore[attr-defined]
        stats["searches"] += 1  # type: ignore[operator]
    if store is not None:
        store.close()
    return stats


if __name__ == "__main__":
    role, root = sys.argv[1], Path(sys.argv[2])
    if role == "writer":
        out = writer(root, int(sys.argv[3]), Path(sys.argv[4]))
    else:
        out = searcher(root, sys.argv[3], Path(sys.argv[4]))
    print(json.dumps(out))
