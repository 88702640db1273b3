"""BEIR-size evaluation: ``memlab eval`` end to end against a plain script (CPU).

Writes a seeded synthetic BEIR folder of SciFact's shape — 5,183 documents
(a title and an abstract of about 200 words drawn from a Zipfian vocabulary
whose commonest words are the engine's stop words, as in English text),
300 test queries of about 12 words (most from one relevant document) with 1–3
judged documents each — imports it (``memlab dataset import beir``) and times,
each from a cold replay cache (the two fresh processes alternate ``--repeat`` times,
default 5, and the medians are reported):

* ``anchor``: ``plain_beir_eval.py`` on the imported files, in a fresh process — no
  memlab import: it reads the files itself, one FTS5 row per document (unicode61), each
  query's c0 keywords with ``ORDER BY rank LIMIT 18``, the first 6 kept, and computes
  nDCG@10, R@5, P@5, RR and Success@5 itself;
* ``memlab``: ``memlab eval DEST --set vectors=false`` in a fresh process (import,
  replay, candidates, ranking, measures, summary);
* ``warm``: the same command again at once, in a fresh process with the caches the
  first one left (the dataset and the replay: what a user's second run costs; shown
  beside the goal, which is judged on the first run);
* ``api``: the same work through the API in a fresh process (CPU, cold; its modules
  imported before the clock starts), by phase —
  loading and checking the dataset, the replay, ranking and measuring — beside the
  anchor's own phases (start-up, reading, indexing, ranking and measuring): where
  the ratio comes from.

The figures are CPU seconds (user + system of the child, ``getrusage``; the goal is
memlab within 1.5× of the anchor), wall seconds and peak memory.

Nothing is downloaded.

    python benchmarks/bench_beir.py [--docs 5183] [--queries 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

DOCS, QUERIES = 5183, 300  # BEIR SciFact: corpus and test queries
REPEAT = 5  # runs of each side, alternating; the medians are the figures
ANCHOR = Path(__file__).resolve().parent / "plain_beir_eval.py"
TIME = "/usr/bin/time"  # GNU time, for the peak memory of each side


def write_beir(dest: Path, docs: int, queries: int, seed: int = 14) -> Path:
    """A seeded BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv)."""
    from memlab.retrieval.keywords import STOP_WORDS

    rng = np.random.default_rng(seed)
    stop = sorted(w for w in STOP_WORDS if len(w.encode()) >= 2)  # the commonest words, as
    vocab = np.array([*stop, *(f"t{i:05d}" for i in range(20_000 - len(stop)))])  # in English
    weights = 1.0 / np.arange(1, len(vocab) + 1) ** 1.05  # Zipf-like term frequencies
    weights /= weights.sum()
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "qrels").mkdir(exist_ok=True)
    texts = []
    with (dest / "corpus.jsonl").open("w", encoding="utf-8") as fh:
        for d in range(docs):
            words = rng.choice(vocab, size=int(rng.integers(120, 300)), p=weights)
            title = " ".join(rng.choice(vocab, size=int(rng.integers(6, 16)), p=weights))
            texts.append(words)
            fh.write(json.dumps({"_id": str(d), "title": title, "text": " ".join(words)}) + "\n")
    with (
        (dest / "queries.jsonl").open("w", encoding="utf-8") as q_out,
        (dest / "qrels" / "test.tsv").open("w", encoding="utf-8") as r_out,
    ):
        r_out.write("query-id\tcorpus-id\tscore\n")
        for q in range(queries):
            relevant = rng.choice(docs, size=int(rng.integers(1, 4)), replace=False)
            own = rng.choice(texts[int(relevant[0])], size=8)
            noise = rng.choice(vocab, size=4, p=weights)
            q_out.write(json.dumps({"_id": f"q{q}", "text": " ".join([*own, *noise])}) + "\n")
            for d in relevant:
                r_out.write(f"q{q}\t{d}\t1\n")
    return dest


def child(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """CPU seconds (user + system, from ``getrusage`` of the child), peak MB (GNU time's
    maximum resident set) and stdout of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [TIME, "-f", "%M", *command], check=True, capture_output=True, text=True, env=env
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, int(done.stderr.strip().splitlines()[-1]) / 1024, done.stdout


def stop_words_file(dest: Path) -> Path:
    """memlab's stop words, one a line, for the plain scripts (which import no memlab)."""
    from memlab.retrieval.keywords import STOP_WORDS

    dest.write_text("\n".join(sorted(STOP_WORDS)), encoding="utf-8")
    return dest


def memlab_api(dataset: Path, work: Path) -> dict[str, float]:
    """CPU seconds of ``memlab eval``'s work through the API in this process (its modules
    imported first; ``measure`` runs it in a fresh process, as the CLI runs), by phase:
    loading and checking the dataset (``prepare_dataset``); the replay, timed by wrapping
    ``Prepared.timeline``, split into indexing the memory as of each query
    (``GroupReplay.advance``) and gathering the candidates (the rest of it); ranking and
    measuring (the rest of ``run_experiment``). Cold, as the CLI runs: its caches go to a
    folder of its own under ``work`` (none is read, none of the user's is written)."""
    from memlab.config import SearchConfig
    from memlab.eval.compare.experiment import run_experiment
    from memlab.eval.replay.prepared import Prepared, PrepareOptions, prepare_dataset
    from memlab.eval.replay.working_copy import GroupReplay

    spent = {"replay": 0.0, "indexing": 0.0}
    wrapped = {"replay": (Prepared, "timeline"), "indexing": (GroupReplay, "advance")}
    kept = {name: getattr(owner, attr) for name, (owner, attr) in wrapped.items()}

    def timer(name: str) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return kept[name](*args, **kwargs)
            finally:
                spent[name] += time.process_time() - start

        return timed

    cache = os.environ.get("MEMLAB_CACHE_DIR")
    os.environ["MEMLAB_CACHE_DIR"] = str(work / "cache")
    try:
        start = time.process_time()
        prepared = prepare_dataset(dataset, PrepareOptions(work_dir=work, progress=False))
        loaded = time.process_time()
        for name, (owner, attr) in wrapped.items():
            setattr(owner, attr, timer(name))
        run_experiment(prepared, {"eval": SearchConfig(vectors=False)})
        done = time.process_time()
    finally:
        for name, (owner, attr) in wrapped.items():
            setattr(owner, attr, kept[name])
        if cache is None:
            del os.environ["MEMLAB_CACHE_DIR"]
        else:
            os.environ["MEMLAB_CACHE_DIR"] = cache
    return {
        "loading and checking the dataset": loaded - start,
        "replay: indexing the memory": spent["indexing"],
        "replay: candidates (FTS queries)": spent["replay"] - spent["indexing"],
        "ranking and measuring": done - loaded - spent["replay"],
    }


def measure(docs: int, queries: int, repeat: int = REPEAT) -> dict[str, Any]:
    """The anchor (``plain_beir_eval.py``) and ``memlab eval`` ``repeat`` times each,
    alternating, each in a fresh process (each ``memlab eval`` with a cold replay cache
    of its own); the figures are the medians of CPU seconds (``memlab_cpu_s``,
    ``anchor_cpu_s``, their ``ratio``: the goal is ≤ 1.5×) and of wall seconds, every
    sample kept beside them, with each side's peak memory and measures; and where each
    side's CPU goes (``anchor_phase_cpu_s``, ``memlab_phase_cpu_s``: medians per phase,
    memlab's from ``memlab_api`` in a fresh process per round, the CLI's median minus
    their sum being its start-up, imports and the rest)."""
    from memlab.datasets.importers import import_dataset

    with tempfile.TemporaryDirectory(prefix="bench-beir-") as tmp:
        base = Path(tmp)
        src = write_beir(base / "beir-src", docs, queries)
        dest = base / "beir"
        import_dataset("beir", src, dest)
        stop = stop_words_file(base / "stop-words.txt")
        walls: dict[str, list[float]] = {"anchor": [], "memlab": [], "warm": []}
        cpus: dict[str, list[float]] = {"anchor": [], "memlab": [], "warm": []}
        peak = {"anchor": 0.0, "memlab": 0.0, "warm": 0.0}
        anchor_out = ""
        anchor_phases: list[dict[str, float]] = []
        api_phases: list[dict[str, float]] = []
        for i in range(repeat):
            work = base / f"work-cli-{i}"
            command = [sys.executable, "-m", "memlab", "eval", str(dest), "--set", "vectors=false"]
            ours = (
                [*command, "--quiet", "--work", str(work)],
                {**os.environ, "MEMLAB_CACHE_DIR": str(work / "cache")},
            )
            sides = {
                "anchor": ([sys.executable, str(ANCHOR), str(dest), str(stop)], None),
                "memlab": ours,
                "warm": ours,  # the same, after it: its caches are warm
            }
            for side, (argv, env) in sides.items():
                start = time.perf_counter()
                cpu, mb, out = child(argv, env)
                walls[side].append(time.perf_counter() - start)
                cpus[side].append(cpu)
                peak[side] = max(peak[side], mb)
                if side == "anchor":
                    anchor_out = out
                    anchor_phases.append(json.loads(out)["phase_cpu_s"])
            api_argv = [sys.executable, __file__, "--api", str(dest), str(base / f"work-api-{i}")]
            api_phases.append(json.loads(child(api_argv)[2]))
    wall = {side: statistics.median(v) for side, v in walls.items()}
    cpu = {side: statistics.median(v) for side, v in cpus.items()}
    measures = json.loads(anchor_out)
    measures.pop("phase_cpu_s")
    api = {k: statistics.median(p[k] for p in api_phases) for k in api_phases[0]}
    return {
        "documents": docs,
        "queries": queries,
        "repeat": repeat,
        "memlab_cpu_s": cpu["memlab"],
        "memlab_cpu_samples_s": cpus["memlab"],
        "anchor_cpu_s": cpu["anchor"],
        "anchor_cpu_samples_s": cpus["anchor"],
        "ratio": cpu["memlab"] / cpu["anchor"],
        "warm_cpu_s": cpu["warm"],
        "warm_cpu_samples_s": cpus["warm"],
        "warm_ratio": cpu["warm"] / cpu["anchor"],
        "memlab_peak_mb": peak["memlab"],
        "anchor_peak_mb": peak["anchor"],
        "anchor_measures": measures,
        # where each side's CPU goes (medians per phase): the anchor's own laps, and memlab's
        # work through the API beside the CLI's median (start-up, imports and the rest)
        "anchor_phase_cpu_s": {
            k: statistics.median(p[k] for p in anchor_phases) for k in anchor_phases[0]
        },
        "memlab_phase_cpu_s": {
            "start-up, imports and the rest": cpu["memlab"] - sum(api.values()),
            **api,
        },
        # wall seconds (the anchor keeps its former name, "raw FTS5 script")
        "raw_fts5_script_s": wall["anchor"],
        "raw_fts5_script_samples_s": walls["anchor"],
        "memlab_eval_cli_s": wall["memlab"],
        "memlab_eval_cli_samples_s": walls["memlab"],
        "cli_over_raw_script": wall["memlab"] / wall["anchor"],
        "memlab_api_cpu_s": sum(api.values()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=DOCS)
    ap.add_argument("--queries", type=int, default=QUERIES)
    ap.add_argument("--repeat", type=int, default=REPEAT, help="runs of each side (medians)")
    ap.add_argument("--json", action="store_true", help="one JSON line")
    ap.add_argument("--api", nargs=2, metavar=("DATASET", "WORK"), type=Path,
                    help="print memlab_api's phases on an imported dataset")  # fmt: skip
    args = ap.parse_args()
    if args.api:
        print(json.dumps(memlab_api(*args.api)))
        return
    out = measure(args.docs, args.queries, args.repeat)
    print(json.dumps(out) if args.json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
