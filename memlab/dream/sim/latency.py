"""The latency draws of every trigger, compiled: both uniforms of each trigger's
lognormal latency (``Trace.latency``'s streams 1 and 2) in one pass."""

from __future__ import annotations

from typing import Any

import numpy as np

from memlab.dream.sim.loop import uniform
from memlab.dream.sim.triggers import USER_KEY
from memlab.jit import numba

nb = numba()


@nb.njit(cache=True, nogil=True)
def latency_uniforms(toff: Any, u0: int, seed32: np.uint64) -> Any:
    """``hashed_uniform(seed, s, trace.key(k))`` of every trigger k for the streams of its
    latency, s = 1 and 2 (``Trace.latency``), in one pass."""
    h1, h2 = np.empty(toff[-1]), np.empty(toff[-1])
    for u in range(len(toff) - 1):
        for k in range(toff[u], toff[u + 1]):
            key = (u0 + u) * USER_KEY + (k - toff[u])
            h1[k], h2[k] = uniform(seed32, key, 1), uniform(seed32, key, 2)
    return h1, h2
