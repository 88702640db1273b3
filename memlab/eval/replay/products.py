"""The replay's product on disk: one file per group, keyed by everything that shapes it.

The key covers the dataset digest, the group and its queries (id, text, as_of),
the judgement level, the memory (index options, Dream settings), the embedder
(when vectors are gathered), the candidate limit, the index schema and memlab's
replay format (``REPLAY_FORMAT``: bump it when what a replay produces changes).
Files are written atomically (temp file + rename), so concurrent notebooks can
share the cache; an unreadable file is dropped and the group replayed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from pathlib import Path

from memlab.datasets import Dataset
from memlab.eval.replay.as_of import GroupProduct
from memlab.eval.replay.memory import Memory
from memlab.store.schema import SCHEMA_VERSION

# 2: candidates carry their settled (keyword-miss) reasons;
# 3: files without Dream replayed in memory (mtimes in whole ns);
# 4: the offline Dream consolidator keeps MEMORY.md within its budget;
# 5: candidates as columns (CandidateColumns), not a CandidateRow per row
#    (memlab.retrieval.candidate_columns since; an older file fails to load: replayed);
# 6: modules renamed (eval/ in wings, memlab.retrieval): the pickled classes moved
REPLAY_FORMAT = 6


def product_key(
    dataset: Dataset,
    group: str,
    memory: Memory,
    embedder_id: str | None,
    use_vectors: bool,
    limit: int,
    keywords: str = "c0",
) -> str:
    queries = [(q.query_id, q.text, q.as_of) for q in dataset.queries_in(group)]
    blob = json.dumps(
        [
            REPLAY_FORMAT,
            SCHEMA_VERSION,
            dataset.digest,
            dataset.level,
            group,
            queries,
            memory.to_dict(),
            embedder_id if use_vectors else None,
            limit,
            *([] if keywords == "c0" else [keywords]),  # c0 keys stay as they were
        ],
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def product_path(work_dir: Path, dataset: Dataset, group: str, key: str) -> Path:
    work_dir.mkdir(parents=True, exist_ok=True)
    return work_dir / f"{_safe(dataset.name)}-{_safe(group)}-{key}.pkl"


def load_product(path: Path) -> GroupProduct | None:
    if not path.is_file():
        return None
    try:
        with open(path, "rb") as fh:
            product = pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError, ImportError):
        # ImportError: a product pickled by a memlab whose modules had other names
        path.unlink(missing_ok=True)
        return None
    return product if isinstance(product, GroupProduct) else None


def save_product(path: Path, product: GroupProduct) -> None:
    tmp = path.with_suffix(f".tmp-{os.getpid()}")
    with open(tmp, "wb") as fh:
        pickle.dump(product, fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60]
