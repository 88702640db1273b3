"""BEIR-size evaluation: ``memlab eval`` end to end against a raw FTS5 script.

Writes a seeded synthetic BEIR folder of SciFact's shape — 5,183 documents
(a title and an abstract of about 200 words drawn from a Zipfian vocabulary
whose commonest words are the engine's stop words, as in English text),
300 test queries of about 12 words (most from one relevant document) with 1–3
judged documents each — imports it (``memlab dataset import beir``) and times,
each from a cold replay cache (the two fresh processes alternate ``--repeat`` times,
default 5, and the medians are reported):

* ``raw``: a plain script on the same files, in a fresh process — one FTS5 row
  per document (unicode61), inserted in one transaction, then each query's MATCH
  string (the engine's own keyword builder, so both run the same FTS work) with
  ``ORDER BY rank LIMIT 18``;
* ``cli``: ``memlab eval DEST --set vectors=false`` in a fresh process (import,
  replay, candidates, ranking, measures, summary);
* ``api``: ``run_experiment`` with the same configuration in this process.

Nothing is downloaded.

    python benchmarks/bench_beir.py [--docs 5183] [--queries 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
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


def write_beir(dest: Path, docs: int, queries: int, seed: int = 14) -> Path:
    """A seeded BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv)."""
    from memlab.search.keywords import STOP_WORDS

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


def raw_fts5(dataset: Path, limit: int = 18) -> dict[str, float]:
    """Index every memory file of the dataset into one FTS5 table and run every query."""
    from memlab.datasets import load_dataset
    from memlab.search.keywords import extract_keywords, match_expression
    from memlab.store.connection import open_connection

    start = time.perf_counter()
    ds = load_dataset(dataset)
    files = sorted(p for g in ds.groups.values() for p in g.root.rglob("*.md"))
    db = open_connection(":memory:", want_vec=False).conn
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(text, tokenize='unicode61')")
    db.execute("BEGIN")
    db.executemany("INSERT INTO docs(text) VALUES (?)", ((p.read_text("utf-8"),) for p in files))
    db.execute("COMMIT")
    indexed = time.perf_counter()
    for q in ds.queries:
        match = match_expression(extract_keywords(q.text))
        if match:
            db.execute(
                "SELECT rowid, rank FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?",
                (match, limit),
            ).fetchall()
    done = time.perf_counter()
    return {"index_s": indexed - start, "query_s": done - indexed, "total_s": done - start}


def memlab_cli(dataset: Path, work: Path) -> float:
    start = time.perf_counter()
    command = [sys.executable, "-m", "memlab", "eval", str(dataset), "--set", "vectors=false"]
    subprocess.run(
        [*command, "--quiet", "--work", str(work)],
        check=True,
        capture_output=True,
        env={**os.environ, "MEMLAB_CACHE_DIR": str(work / "cache")},
    )
    return time.perf_counter() - start


def memlab_api(dataset: Path, work: Path) -> float:
    from memlab.config import SearchConfig
    from memlab.eval.experiment import run_experiment
    from memlab.eval.prepare import prepare_dataset

    start = time.perf_counter()
    prepared = prepare_dataset(dataset, work_dir=work, progress=False)
    run_experiment(prepared, {"eval": SearchConfig(vectors=False)})
    return time.perf_counter() - start


def measure(docs: int, queries: int, repeat: int = REPEAT) -> dict[str, Any]:
    """The raw script and ``memlab eval`` ``repeat`` times each, alternating (each
    ``memlab eval`` with a cold replay cache of its own); the figures are the medians,
    every sample kept beside them (one sample of a 1–2 s process moves by ±0.3 s on a
    shared machine)."""
    from memlab.datasets.importers import import_dataset

    with tempfile.TemporaryDirectory(prefix="bench-beir-") as tmp:
        base = Path(tmp)
        src = write_beir(base / "beir-src", docs, queries)
        dest = base / "beir"
        import_dataset("beir", src, dest)
        scripts: list[float] = []
        clis: list[float] = []
        for i in range(repeat):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, __file__, "--raw", str(dest)], check=True, capture_output=True
            )
            scripts.append(time.perf_counter() - start)
            clis.append(memlab_cli(dest, base / f"work-cli-{i}"))
        raw = raw_fts5(dest)
        api = memlab_api(dest, base / "work-api")
    raw_script, cli = statistics.median(scripts), statistics.median(clis)
    return {
        "documents": docs,
        "queries": queries,
        "repeat": repeat,
        "raw_fts5_script_s": raw_script,
        "raw_fts5_script_samples_s": scripts,
        "raw_fts5_in_process": raw,
        "memlab_eval_cli_s": cli,
        "memlab_eval_cli_samples_s": clis,
        "memlab_api_s": api,
        "cli_over_raw_script": cli / raw_script,
        "cli_over_api": cli / api,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=DOCS)
    ap.add_argument("--queries", type=int, default=QUERIES)
    ap.add_argument("--repeat", type=int, default=REPEAT, help="runs of each side (medians)")
    ap.add_argument("--json", action="store_true", help="one JSON line")
    ap.add_argument("--raw", type=Path, help=argparse.SUPPRESS)  # the raw script, on DATASET
    args = ap.parse_args()
    if args.raw:
        print(json.dumps(raw_fts5(args.raw)))
        return
    out = measure(args.docs, args.queries, args.repeat)
    print(json.dumps(out) if args.json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
