"""One query's measures as plain functions: the definitions the vectorised
measures are tested against, and what the live search reports.

* ``Judged@k`` — share of the top k positions holding a judged document;
* ``Redundancy`` — mean pairwise Jaccard of the returned snippets' token sets
  (queries with ≥ 2 hits);
* ``Stale`` — 1 if a chunk holding a superseded fact ranks above every chunk
  holding its replacement (or the replacement is missing);
* ``Tokens`` — returned tokens (UTF-8 bytes / 4, rounded up, per snippet).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from memlab.text import jaccard, snippet_tokens


def judged_at(ranking: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    """Share of the top ``k`` positions holding a judged document (0 if none returned)."""
    top = list(ranking[:k])
    return sum(1 for d in top if d in judged) / k if top else 0.0


def redundancy(
    snippets: Sequence[str], seen: dict[str, frozenset[str]] | None = None
) -> float | None:
    """Mean pairwise Jaccard of snippet token sets; None with fewer than two.
    ``seen``: the token sets of snippets already split (a run's queries share many
    snippets), filled as it goes."""
    if len(snippets) < 2:
        return None
    if seen is None:
        tokens = [snippet_tokens(s) for s in snippets]
    else:
        tokens = [seen[s] if s in seen else seen.setdefault(s, snippet_tokens(s)) for s in snippets]
    pairs = [jaccard(a, b) for i, a in enumerate(tokens) for b in tokens[i + 1 :]]
    return sum(pairs) / len(pairs)


def stale_above(ranking: Sequence[str], stale: set[str], relevant: set[str]) -> float | None:
    """1.0 if a stale chunk ranks above every relevant one (or no relevant one is returned)."""
    if not stale:
        return None
    first_stale = next((i for i, d in enumerate(ranking) if d in stale), None)
    if first_stale is None:
        return 0.0
    first_good = next((i for i, d in enumerate(ranking) if d in relevant), None)
    return 1.0 if first_good is None or first_stale < first_good else 0.0


def tokens_of(snippets: Sequence[str]) -> int:
    return sum(math.ceil(len(s.encode("utf-8")) / 4) for s in snippets)
