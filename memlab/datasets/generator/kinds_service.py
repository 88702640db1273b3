"""Kinds about how a service runs: port, owner, timeouts, retries, scale, schedules, limits.

The tables are in ``kinds_service_runtime`` (port … cache) and ``kinds_service_policy``
(schedule … version); this module joins them in their catalogue order.
"""

from __future__ import annotations

from memlab.datasets.generator.kinds import Kind
from memlab.datasets.generator.kinds_service_policy import POLICY_KINDS
from memlab.datasets.generator.kinds_service_runtime import RUNTIME_KINDS

SERVICE_KINDS: tuple[Kind, ...] = RUNTIME_KINDS + POLICY_KINDS
