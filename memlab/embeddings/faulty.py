"""``faulty(p, mode, rate)``: a provider that misbehaves on purpose, for degradation studies.

Modes: ``raise`` (an exception), ``timeout`` (waits, then raises TimeoutError),
``wrong-dim`` (vectors one dimension short), ``nan`` (NaN values), ``empty``
(returns nothing). ``rate`` is the probability that a call misbehaves, drawn
from a seeded generator, so a run is reproducible.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from memlab.embeddings.base import EmbeddingProvider, Matrix, WrappedProvider
from memlab.errors import ConfigError, unknown_name

FAULT_MODES = ("raise", "timeout", "wrong-dim", "nan", "empty")


class FaultyEmbedder(WrappedProvider):
    def __init__(
        self,
        inner: EmbeddingProvider,
        mode: str,
        rate: float = 1.0,
        *,
        seed: int = 0,
        timeout_secs: float = 0.05,
    ) -> None:
        if mode not in FAULT_MODES:
            raise ConfigError(unknown_name("fault mode", mode, FAULT_MODES))
        if not 0.0 <= rate <= 1.0:
            raise ConfigError(f"fault rate must be in [0, 1], got {rate}")
        super().__init__(inner)
        self.mode, self.rate = mode, rate
        self.timeout_secs = timeout_secs
        self._rng = random.Random(seed)
        self.faults = 0
        self.calls = 0

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        self.calls += 1
        if self._rng.random() >= self.rate:
            return self.inner.embed_batch(texts)
        self.faults += 1
        return self._misbehave(texts)

    def _misbehave(self, texts: Sequence[str]) -> Any:
        if self.mode == "raise":
            raise RuntimeError("injected embedding failure")
        if self.mode == "timeout":
            time.sleep(self.timeout_secs)
            raise TimeoutError(f"injected timeout after {self.timeout_secs}s")
        if self.mode == "empty":
            return None
        good = self.inner.embed_batch(texts)
        if self.mode == "wrong-dim":
            return good[:, :-1]
        bad = good.copy()
        bad[:, 0] = np.nan
        return bad
