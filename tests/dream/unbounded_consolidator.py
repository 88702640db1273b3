"""A consolidator that never condenses (``--consolidator
tests.dream.unbounded_consolidator:run``): the offline one without its budget, like a
model that keeps everything, so c0's 16,000-character cut on the answer shows."""

from __future__ import annotations

from memlab.dream.offline import OfflineConsolidator


def run(prompt: str) -> str:
    return OfflineConsolidator(budget=None).consolidate(prompt[prompt.index("--- ") :])
