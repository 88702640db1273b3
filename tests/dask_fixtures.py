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


@pytest.fixture(scope="session")
def dask_scheduler_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``dask scheduler`` and 2 ``dask worker`` processes started as subprocesses on
    ``tcp://127.0.0.1`` (a random port); stopped afterwards."""
    pytest.importorskip("distributed")
    import os
    import shutil
    import socket
    import subprocess
    import sys

    from distributed import Client

    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    logs = tmp_path_factory.mktemp("dask-logs")
    quiet = ["--no-dashboard"]
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), *quiet],
            stdout=subprocess.DEVNULL,
            stderr=open(logs / "scheduler.log", "wb"),  # noqa: SIM115 (closed with the process)
        )
    ]
    for i in range(2):
        procs.append(
            subprocess.Popen(
                [dask, "worker", address, "--nthreads", "1", "--host", "127.0.0.1", *quiet],
                stdout=subprocess.DEVNULL,
                stderr=open(logs / f"worker{i}.log", "wb"),  # noqa: SIM115
            )
        )
    try:
        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
