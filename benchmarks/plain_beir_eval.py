"""A plain script doing what ``memlab eval DEST --set vectors=false`` does on an imported
BEIR dataset, without memlab: the anchor of ``bench_beir``.

It reads the imported dataset's files itself (every ``memory/**/*.md``, ``queries.jsonl``,
``qrels.tsv``), indexes one FTS5 row per memory file (unicode61, the default profile's
tokenizer), runs each query's c0 keywords (lowercase ``\\w+`` tokens of at least 2 bytes,
not a stop word, not all digits, first occurrence; an OR of quoted terms; the stop words
read from a file, one a line, so both sides run the same FTS work) with ``ORDER BY rank
LIMIT 18`` (c0's candidate limit: 6 results × 3), keeps the first 6 (c0's
``max_results``) and computes nDCG@10 (trec_eval's), R@5, P@5, RR and Success@5 over the
judged queries itself, printing them with the CPU seconds of its phases (``phase_cpu_s``:
start-up and imports, reading the files, indexing them, ranking and measuring; the
files are read into a list before they are indexed, so the two can be timed apart,
which holds the corpus in memory once: 8 MB more peak memory at SciFact's size). It
imports nothing from memlab (the figure it anchors would be meaningless); its ranking
is FTS5's order without memlab's score filters, so its numbers are close to, not equal
to, memlab's.

    python benchmarks/plain_beir_eval.py DATASET_DIR STOP_WORDS.txt
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import sys
import time
from pathlib import Path

LIMIT, RESULTS = 18, 6
WORD = re.compile(r"\w+")


def keywords(text: str, stop: set[str]) -> list[str]:
    out: dict[str, None] = {}
    for token in WORD.findall(text.lower()):
        if len(token.encode("utf-8")) >= 2 and token not in stop and not token.isnumeric():
            out.setdefault(token, None)
    return list(out)


def main(
    dataset: Path, stop_words: Path, phases: dict[str, float] | None = None
) -> dict[str, float]:
    """The measures; ``phases`` gets the CPU seconds of each phase."""
    laps = [("", 0.0)]  # (phase, CPU seconds when it ended); the process started at 0

    def lap(name: str) -> None:
        laps.append((name, time.process_time()))

    lap("start-up and imports")
    stop = set(stop_words.read_text(encoding="utf-8").split())
    memory = dataset / "memory"
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(path UNINDEXED, body, tokenize='unicode61')")
    files = sorted(memory.rglob("*.md"))
    texts = [(p.relative_to(memory).as_posix(), p.read_text(encoding="utf-8")) for p in files]
    lap("reading the files")
    db.executemany("INSERT INTO docs(path, body) VALUES (?, ?)", texts)
    lap("indexing")
    qrels: dict[str, dict[str, int]] = {}
    with (dataset / "qrels.tsv").open(encoding="utf-8") as fh:
        for line in fh:
            qid, _, target, grade = line.rstrip("\n").split("\t")
            qrels.setdefault(qid, {})[target] = int(grade)
    sums = dict.fromkeys(("nDCG@10", "R@5", "P@5", "RR", "Success@5"), 0.0)
    scored = 0
    with (dataset / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            q = json.loads(line)
            judged = qrels.get(q["query_id"], {})
            words = keywords(q["text"], stop)
            ranked: list[str] = []
            if words:
                match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
                sql = "SELECT path FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?"
                ranked = [p for (p,) in db.execute(sql, (match, LIMIT))][:RESULTS]
            ideal = sorted((g for g in judged.values() if g > 0), reverse=True)
            if not ideal:
                continue
            gains = [max(judged.get(d, 0), 0) for d in ranked]
            dcg = sum(g / math.log2(r + 2) for r, g in enumerate(gains[:10]))
            idcg = sum(g / math.log2(r + 2) for r, g in enumerate(ideal[:10]))
            hits5 = sum(1 for g in gains[:5] if g > 0)
            first = next((r for r, g in enumerate(gains) if g > 0), None)
            sums["nDCG@10"] += dcg / idcg
            sums["R@5"] += hits5 / len(ideal)
            sums["P@5"] += hits5 / 5
            sums["RR"] += 0.0 if first is None else 1.0 / (first + 1)
            sums["Success@5"] += float(hits5 > 0)
            scored += 1
    lap("ranking and measuring")
    if phases is not None:
        phases.update(
            (name, end - start) for (_, start), (name, end) in zip(laps[:-1], laps[1:], strict=True)
        )
    return {name: total / max(scored, 1) for name, total in sums.items()} | {"NumQ": scored}


if __name__ == "__main__":
    spent: dict[str, float] = {}
    measures = main(Path(sys.argv[1]), Path(sys.argv[2]), spent)
    print(json.dumps({**measures, "phase_cpu_s": spent}))
