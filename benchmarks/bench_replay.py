"""Replay benchmark: as-of evaluation on a v2-sized synthetic timeline.

Writes a seeded synthetic format-2 dataset the size the shipped v2 dataset
targets — three workspaces sharing one root, six months, growing session logs
(each written as three prefixes), weekly appends to each ``MEMORY.md``, about
2,000 chunks and 600 queries each at its own time — and measures:

* ``vectors``: ``precompute_vectors`` with the offline hash embedder (every chunk
  text of the default replays), so evaluation reads vectors from the dataset's
  cache as it does with the shipped MiniLM vectors;
* ``replay``: the first ``Prepared.timeline`` (each group replayed once, every
  query's candidates gathered at its time, judgements resolved), Dream off and
  on (c0's gates), split into where the time goes (profiled by function:
  reindexing, Dream, reading chunks back, embedding, gathering, resolving
  judgements);
* ``cached``: the same timeline from the on-disk cache in a new ``Prepared``;
* ``compare``: ``run_experiment`` with fts, hybrid and mmr on the cached replay.

    python benchmarks/bench_replay.py [--queries 600] [--days 180] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from memlab.datasets import DatasetWriter, load_dataset
from memlab.eval.compare.experiment import run_experiment
from memlab.eval.replay.embedders import evaluation_embedder
from memlab.eval.replay.memory import memory_for
from memlab.eval.replay.precompute import precompute_vectors
from memlab.eval.replay.prepared import prepare
from memlab.timefmt import parse_iso

DAY = 86400.0
T0 = parse_iso("2026-01-05T09:00:00Z")
WORKSPACES = ("api-1111aaaa", "web-2222bbbb", "ops-3333cccc")
PHASES = {  # where the time of a replay goes: profiled functions, by what they do
    "reindex": ("reindex_file",),
    "dream": ("_dream",),
    "read chunks back": ("chunks",),
    "embed": ("_embed",),
    "gather": ("gather",),
    "judge": ("judge_query",),
}


def _words(rng: np.random.Generator, vocab: list[str], n: int) -> str:
    return " ".join(vocab[i] for i in rng.integers(0, len(vocab), n))


def write_synthetic(dest: Path, queries: int, days: int, seed: int = 7) -> Path:
    rng = np.random.default_rng(seed)
    vocab = [f"w{i:04d}" for i in range(3000)]
    w = DatasetWriter(
        dest,
        name="synthetic-v2",
        licence="CC0-1.0",
        origin="benchmarks/bench_replay.py",
        as_of=T0 + days * DAY,
        grouped=True,
        format_version=2,
    )
    facts: list[tuple[str, str, str, float]] = []  # (group, fact id, text, time)
    for g, ws in enumerate(WORKSPACES):
        w.add_group(f"g{g}", workspace=ws, root="memory")
    w.add_file("MEMORY.md", "# Global\n\n- Answer briefly and cite files.\n", T0, group="g0")
    for g, ws in enumerate(WORKSPACES):
        gid = f"g{g}"
        memory = f"# {ws}\n\n## Decisions\n\n"
        w.add_event(f"{ws}/MEMORY.md", T0, group=gid, content=memory)
        for week in range(days // 7):
            note = f"- Decision {week}: {_words(rng, vocab, 14)}\n"
            w.add_event(f"{ws}/MEMORY.md", T0 + (week * 7 + 3) * DAY, group=gid, append=note)
            memory += note
        w.add_file(f"{ws}/MEMORY.md", memory, None, group=gid)
        for s in range(int(days * 1.1)):
            start = T0 + s * DAY / 1.1 + float(rng.uniform(0, 6 * 3600))
            date = time.strftime("%Y-%m-%d", time.gmtime(start))
            rel = f"{ws}/sessions/{date}-s{s:03d}-{g}{s:07d}.md"
            lines = [f"# Session {s} of {ws}", ""]
            for k in range(48):
                if k % 7 == 3:
                    fid = f"f-{g}-{s}-{k}"
                    text = f"Fact {fid}: {_words(rng, vocab, 10)}"
                    lines.append(f"- {text}")
                    facts.append((gid, fid, text, start + 3600 * (k // 10)))
                    w.add_fact(fid, rel, text, group=gid)
                else:
                    lines.append(f"- {_words(rng, vocab, 16)}")
            data = ("\n".join(lines) + "\n").encode()
            w.add_file(rel, data.decode(), None, group=gid)
            cuts = [len(data) * (i + 1) // 3 for i in range(3)]
            cuts = [data.rfind(b"\n", 0, c) + 1 if i < 2 else c for i, c in enumerate(cuts)]
            for i, cut in enumerate(cuts):
                w.add_event(rel, start + 3600 * i, group=gid, nbytes=cut if i < 2 else None)
    gaps = np.concatenate(
        [rng.uniform(0, 7, 300), rng.uniform(7, 30, 180), rng.uniform(30, 180, 120)]
    )
    picked = rng.choice(len(facts), queries, replace=False)
    for i, (f, gap) in enumerate(zip(picked, rng.permutation(gaps)[:queries], strict=False)):
        gid, fid, text, at = facts[int(f)]
        words = text.split(": ", 1)[1].split()
        w.add_query(
            f"q{i:04d}",
            " ".join(words[:5]),
            group=gid,
            as_of=min(at + 3600 + gap * DAY, T0 + days * DAY),
        )
        w.judge(f"q{i:04d}", f"fact:{fid}", 2)
    return w.finish()


def _phases(profile: cProfile.Profile) -> dict[str, float]:
    stats = pstats.Stats(profile)
    out = dict.fromkeys(PHASES, 0.0)
    for (_, _, name), (_, _, _, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        for phase, names in PHASES.items():
            if name in names:
                out[phase] += cumulative
    return {k: round(v, 2) for k, v in out.items()}


def _final_chunks(prepared: Any, ds: Any) -> int:
    return sum(
        len(_chunks(prepared, g.id, max(e.at for e in g.events))) for g in ds.groups.values()
    )


def _chunks(prepared: Any, group: str, at: float) -> list[Any]:
    with prepared.store_at(group, at) as store:
        return list(store.index.chunks())


def measure(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="bench-replay-"))
    start = time.perf_counter()
    path = write_synthetic(work / "ds", args.queries, args.days)
    written = time.perf_counter() - start
    start = time.perf_counter()
    vectors = precompute_vectors(path, "hash")
    vectors_s = time.perf_counter() - start
    ds = load_dataset(path)
    out: dict[str, Any] = {
        "write_seconds": round(written, 2),
        "vectors_seconds": round(vectors_s, 2),
        "vector_texts": vectors.texts,
        "queries": len(ds.queries),
        "events": sum(len(g.events) for g in ds.groups.values()),
    }
    for name, dream in (("dream_off", False), ("dream_on", True)):
        memory = memory_for(ds, dream=dream)
        embedder = evaluation_embedder(ds, None)  # the dataset's vectors, as shipped
        prepared = prepare(ds, embedder=embedder, memory=memory, work_dir=work / "cache")
        profile = cProfile.Profile()
        start = time.perf_counter()
        profile.enable()
        timeline = prepared.timeline(18)
        profile.disable()
        seconds = time.perf_counter() - start
        chunks = len({str(c) for c in timeline.batch.chunk_id})
        again = prepare(ds, embedder=embedder, memory=memory, work_dir=work / "cache")
        start = time.perf_counter()
        again.timeline(18)
        cached = time.perf_counter() - start
        start = time.perf_counter()
        run_experiment(again, ["fts", "hybrid", "mmr"])
        compare = time.perf_counter() - start
        out[name] = {
            "chunks_at_the_end": _final_chunks(prepared, ds),
            "unresolved_queries": len(timeline.unresolved),
            "replay_seconds": round(seconds, 2),
            "phases_seconds": _phases(profile),
            "cached_seconds": round(cached, 2),
            "compare_seconds_on_cache": round(compare, 2),
            "distinct_candidate_chunks": chunks,
            "dream_runs": sum(d.status == "completed" for d in timeline.dreams),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=600)
    parser.add_argument("--days", type=int, default=180)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    result = measure(args)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
