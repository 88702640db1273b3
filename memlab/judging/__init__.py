"""Judging: a team's own memory made into a labelled benchmark.

The path (docs/judging.md, "Your own memory as a benchmark")::

    memlab dataset from-memory ROOT DEST --queries FILE   # memlab.datasets.from_memory
    memlab pool DEST --runs fts,hybrid,mmr --depth 10     # pool: the candidates to judge
    memlab judge DEST                                     # terminal (or notebooks/judge.ipynb)
    memlab compare DEST --runs fts,hybrid,mmr

Modules: ``pool`` (the union of several runs' top k per query, at the query's
time, with stage traces, in a blind order), ``journal`` (grades saved at once:
fsynced appends to ``qrels.tsv``, who/when/notes in ``judgements.jsonl``,
torn lines repaired on resume, the digest kept current), ``session`` (the flow:
next candidate, grade, skip, abstention, back, add a query), ``terminal`` and
``memlab.workbench.judging`` (its two views), ``highlight`` (the query's terms
in a text), ``agreement`` (Cohen's κ) and ``health`` (progress, Judged@k per
run with the gap warning of ``memlab.eval.compare.coverage``, κ).

Judgement targets are line spans (``path#La-Lb``) of the file version at the
query's time, not fact ids: a span names exactly the text the judge read, and
resolves to whatever chunks overlap it under any chunk size or overlap. A
dataset made from a memory does not replay Dream (its ``MEMORY.md`` already
holds what Dream wrote), so the version a judge saw is the version every
evaluation sees at that time; evaluating it with ``--dream on`` rewrites
``MEMORY.md`` during replay, and spans in it may then point at other text
(session logs, which Dream never rewrites, stay exact).
"""

from __future__ import annotations

from memlab.judging.agreement import Agreement, agreement, cohen_kappa
from memlab.judging.health import Health, judging_health
from memlab.judging.pool import Candidate, PoolReport, PoolSettings, pool_dataset, read_pool
from memlab.judging.session import Item, JudgingSession, Progress

__all__ = [
    "Agreement",
    "Candidate",
    "Health",
    "Item",
    "JudgingSession",
    "PoolReport",
    "PoolSettings",
    "Progress",
    "agreement",
    "cohen_kappa",
    "judging_health",
    "pool_dataset",
    "read_pool",
]
