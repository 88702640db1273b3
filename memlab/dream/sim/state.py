"""The simulator's vocabulary: the outcome of a model call, the columns of an attempt,
the per-user counters (shared by the engine, ``sim.kernel``, and ``sim.reference``)."""

from __future__ import annotations

# The outcome of a model call (codes in the ``outcome`` column; names in ``OUTCOMES``).
FAILED, BUSY, NOTHING, COMPLETED, STALE = 0, 1, 2, 3, 4
OUTCOMES = ("failed", "lock-busy", "nothing", "completed", "stale-input")
COLUMNS = (
    "user",
    "trigger",
    "kind",
    "t",
    "acquire",
    "outcome",
    "sessions",
    "input_bytes",
    "content_bytes",
    "deleted",
    "kept_active",
    "memory_chars",
    "response_chars",
    "truncated",
    "duplicate",
)
# Per-user counts of triggers that did not call the model, and of /dream commands.
COUNTERS = ("checks", "disabled", "too_soon", "too_few", "no_input", "manual", "manual_empty")
