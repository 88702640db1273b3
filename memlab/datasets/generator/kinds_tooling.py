"""Kinds about the tooling around a service: dashboards, alerts, config, tests, storage, deploys.

The tables are in ``kinds_tooling_ops`` (dashboard … logs) and ``kinds_tooling_resources``
(topic … deploy); this module joins them in their catalogue order.
"""

from __future__ import annotations

from memlab.datasets.generator.kinds import Kind
from memlab.datasets.generator.kinds_tooling_ops import OPS_KINDS
from memlab.datasets.generator.kinds_tooling_resources import RESOURCE_KINDS

TOOLING_KINDS: tuple[Kind, ...] = OPS_KINDS + RESOURCE_KINDS
