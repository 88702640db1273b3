"""Dream: memory consolidation with gates, a best-effort lock, rollback and cleanup (SPEC §7).

* ``gates`` — pure gate and trigger decisions;
* ``lock`` — ``DreamLock`` (PID body, mtime = last success);
* ``inputs`` / ``response`` — building the input and processing the answer;
* ``run`` — one run (``run_dream``) and its ``DreamOutcome``;
* ``consolidators`` / ``offline`` — what produces the new memory;
* ``write`` — c0's in-place write and the atomic option;
* ``crash`` — the SIGKILL campaign (``python -m memlab.dream.kill_dream``);
* ``sim`` — the capacity simulator (a package: ``memlab.dream.sim``); imported on
  demand, as it needs numpy and pandas.
"""

from __future__ import annotations

from memlab.dream.consolidators import (
    CallableConsolidator,
    Consolidator,
    ScriptedConsolidator,
    get_consolidator,
)
from memlab.dream.gates import Trigger, check_dream_gates, decide
from memlab.dream.lock import DreamLock
from memlab.dream.offline import OfflineConsolidator
from memlab.dream.run import DreamOutcome, DreamStatus, IndexUpdater, run_dream

__all__ = [
    "CallableConsolidator",
    "Consolidator",
    "DreamLock",
    "DreamOutcome",
    "DreamStatus",
    "IndexUpdater",
    "OfflineConsolidator",
    "ScriptedConsolidator",
    "Trigger",
    "check_dream_gates",
    "decide",
    "get_consolidator",
    "run_dream",
]
