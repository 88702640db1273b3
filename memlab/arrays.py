"""Type aliases of the numpy arrays the scoring core and the sweep pass around."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

__all__ = ["BoolArray", "FloatArray", "IntArray"]
