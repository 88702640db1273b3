"""memlab: a faithful engine of an AI coding agent's memory, and a workbench to evaluate it."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
