"""A real Dask ``LocalCluster`` (2 worker processes on the loopback) for the equality
tests; the tests that use it are skipped when the ``memlab[dask]`` extra is missing."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "scale-out.md"


def page_commands() -> list[list[str]]:
    """The commands of the "When one machine is not enough" block (docs/scale-out.md)."""
    text = PAGE.read_text(encoding="utf-8")
    block = text.split("# When one machine is not enough", 1)[1].split("```sh\n", 1)[1]
    lines = block.split("```", 1)[0].splitlines()
    return [shlex.split(line, comments=True) for line in lines if line.strip()]


def on_loopback(argv: list[str], port: int) -> list[str]:
    """A docs/scale-out.md command pointed at ``tcp://127.0.0.1:port``."""
    return [a.replace("SCHEDULER", "127.0.0.1").replace("8786", str(port)) for a in argv]


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    pytest.importorskip("distributed")
    from memlab.cluster import connect
    from memlab.dream.sim.fleet import warm_worker as warm_fleet
    from memlab.sweep.work import warm_worker as warm_sweep

    client = connect("local:2", dashboard=False, warmers=(warm_sweep, warm_fleet))
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
    # docs/scale-out.md's commands, on the loopback interface and without dashboards
    (scheduler,) = [c for c in page_commands() if c[:2] == ["dask", "scheduler"]]
    (worker,) = [c for c in page_commands() if c[:2] == ["dask", "worker"]]
    local = ["--host", "127.0.0.1", "--no-dashboard"]
    commands = [on_loopback(scheduler, port), on_loopback(worker, port), on_loopback(worker, port)]
    procs = [
        subprocess.Popen(
            [dask, *argv[1:], *local],
            stdout=subprocess.DEVNULL,
            stderr=open(logs / f"{i}-{argv[1]}.log", "wb"),  # noqa: SIM115 (closed at exit)
        )
        for i, argv in enumerate(commands)
    ]
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
