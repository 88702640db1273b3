"""A real Dask ``LocalCluster`` (2 worker processes on the loopback) for the equality
tests; the tests that use it are skipped when the ``memlab[dask]`` extra is missing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    pytest.importorskip("distributed")
    from memlab.cluster import connect

    client = connect("local:2", dashboard=False)
    try:
        yield client
    finally:
        client.close()
