"""A consolidator for overlap tests (``--consolidator tests.dream.slow_consolidator:run``).

It signals that its input was read (touches ``$MEMLAB_TEST_STARTED``), waits until the
test creates ``$MEMLAB_TEST_RELEASE`` (so a second run can finish meanwhile), then
answers like the offline consolidator. No sleeps: the order is driven by the test.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from memlab.dream.offline import OfflineConsolidator


def run(prompt: str) -> str:
    Path(os.environ["MEMLAB_TEST_STARTED"]).touch()
    release = Path(os.environ["MEMLAB_TEST_RELEASE"])
    deadline = time.monotonic() + 120
    while not release.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return OfflineConsolidator().consolidate(prompt[prompt.index("--- ") :])
