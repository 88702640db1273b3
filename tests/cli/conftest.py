"""Fixtures of the command-line tests: the memories, projects and datasets the commands
run on come from the tests of the subpackage each command drives; the zoo of hostile
files comes from ``tests.cli.zoo``."""

from __future__ import annotations

from tests.agents.conftest import home, repo
from tests.cli.zoo import zoo
from tests.datasets.conftest import tiny
from tests.dream.conftest import root
from tests.sweep.conftest import _isolated_cache, evalmini, evalmini_path

__all__ = [
    "_isolated_cache",
    "evalmini",
    "evalmini_path",
    "home",
    "repo",
    "root",
    "tiny",
    "zoo",
]
