"""Fixtures of the workbench tests: the report tests' tiny dataset and isolated cache."""

from __future__ import annotations

from tests.report.conftest import _isolated_cache, tiny_dataset

__all__ = ["_isolated_cache", "tiny_dataset"]
