"""Store test helpers."""

from __future__ import annotations

from memlab.store.verify import index_problems

__all__ = ["index_problems"]
