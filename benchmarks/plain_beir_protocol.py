"""A plain script doing what ``memlab eval DEST --protocol beir --set vectors=false``
does, without memlab: the baseline of ``bench_protocol``.

It reads a BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv), indexes one
FTS5 row per document (title and text, the porter tokenizer as the ``standard-ir``
profile's), ranks every query's words but the stop words (an OR of quoted terms, 1,000
results, the query's own id left out; the stop words are read from a file, one a
line, so that both sides run the same FTS work) and computes nDCG@k (trec_eval's,
graded) and R@k for k = 1, 3, 5, 10, 100 itself, printing nDCG@10 and R@100.
It imports nothing from memlab (the figure it anchors would be meaningless).

    python benchmarks/plain_beir_protocol.py BEIR_DIR STOP_WORDS.txt
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import sys
from pathlib import Path

KS = (1, 3, 5, 10, 100)
DEPTH = 1000
WORD = re.compile(r"\w+")


def main(src: Path, stop_words: Path) -> dict[str, float]:
    stop = set(stop_words.read_text(encoding="utf-8").split())
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(doc_id UNINDEXED, body, tokenize='porter')")
    with (src / "corpus.jsonl").open(encoding="utf-8") as fh:
        rows = (json.loads(line) for line in fh if line.strip())
        db.executemany(
            "INSERT INTO docs(doc_id, body) VALUES (?, ?)",
            ((d["_id"], f"{d.get('title', '')}\n\n{d.get('text', '')}") for d in rows),
        )
    qrels: dict[str, dict[str, int]] = {}
    with (src / "qrels" / "test.tsv").open(encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            qid, did, grade = line.rstrip("\n").split("\t")
            qrels.setdefault(qid, {})[did] = int(grade)
    queries = {}
    with (src / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            q = json.loads(line)
            queries[q["_id"]] = q["text"]
    sums = {f"{m}@{k}": 0.0 for m in ("nDCG", "R") for k in KS}
    scored = 0
    for qid, judged in qrels.items():
        if qid not in queries or not any(g > 0 for g in judged.values()):
            continue
        words = dict.fromkeys(w.lower() for w in WORD.findall(queries[qid]))
        words = {w: None for w in words if w not in stop}
        match = " OR ".join(f'"{w}"' for w in words)
        ranked = [
            d
            for (d,) in db.execute(
                "SELECT doc_id FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?",
                (match, DEPTH + 1),
            )
            if d != qid
        ][:DEPTH]
        ideal = sorted((g for g in judged.values() if g > 0), reverse=True)
        relevant = len(ideal)
        for k in KS:
            gains = [max(judged.get(d, 0), 0) for d in ranked[:k]]
            dcg = sum(g / math.log2(r + 2) for r, g in enumerate(gains))
            idcg = sum(g / math.log2(r + 2) for r, g in enumerate(ideal[:k]))
            sums[f"nDCG@{k}"] += dcg / idcg
            sums[f"R@{k}"] += sum(1 for g in gains if g > 0) / relevant
        scored += 1
    return {name: total / scored for name, total in sums.items()} | {"NumQ": scored}


if __name__ == "__main__":
    means = main(Path(sys.argv[1]), Path(sys.argv[2]))
    print(json.dumps({m: means[m] for m in ("nDCG@10", "R@100", "NumQ")}))
