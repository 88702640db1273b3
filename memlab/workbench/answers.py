"""The answers to the course's exercises, in one place (``memlab.workbench.course``).

A notebook's answer cell reads ``answer = wb.solution("candidates", solutions)``:
with the papermill parameter ``solutions`` false (a learner's run) that is
``None`` — "not yet" — and the learner replaces it with their own answer; with
``solutions=True`` it is the value below, and every check passes (the course
test runs both). The checks never read these values: each one runs the engine.
"""

from __future__ import annotations

from typing import Any

SOLUTIONS: dict[str, Any] = {
    # 1. the retrieval pipeline: full-text candidates when max_results is 4
    "candidates": 12,
    # 2. degradation: an embedder that always fails
    "failing_embedder": "faulty:raise:hash",
    # 3. Dream's gates: the gate that stops the run of the scenario
    "stopping_gate": "too-few-sessions",
    # 4. DreamLock and rollback: hours since the last consolidation after a failed write
    "hours_after_rollback": 30,
    # 5. the four structures: the one that cannot carry a capability mode
    "no_capability_mode": "SubagentPersona",
    # 6. the cascade: reviewer (role: read-only) spawned with capability_mode=execute
    "cascade_capability_mode": "execute",
    # 7. fail-closed against soft degradation: does the spawn proceed?
    "proceeds": {"persona_error": False, "role_prompt_warning": True},
}
