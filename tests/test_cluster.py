"""Choosing where work runs (``memlab.cluster``): the spellings, Dask imported only when
asked for, one clear line without the extra or when the scheduler is unreachable."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memlab.cli import main
from memlab.cluster import INSTALL_HINT, connect, parse_scheduler
from memlab.errors import ConfigError


def test_scheduler_spellings() -> None:
    assert parse_scheduler("local") == ("local", None)
    assert parse_scheduler("local:3") == ("local", 3)
    assert parse_scheduler("tcp://10.0.0.5:8786") == ("remote", None)
    for bad in ("", "locl", "local:0", "local:x", "10.0.0.5:8786", "tcp://"):
        with pytest.raises(ConfigError, match="--scheduler"):
            parse_scheduler(bad)


def test_dask_is_imported_only_when_a_scheduler_is_asked_for() -> None:
    code = (
        "import sys, memlab.cli, memlab.cluster, memlab.sweep.runner, memlab.dream.sim.stream,"
        " memlab.workbench; assert 'distributed' not in sys.modules"
        " and 'dask' not in sys.modules, 'dask imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_without_the_extra_a_scheduler_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed → ImportError
    with pytest.raises(ConfigError, match="memlab\\[dask\\]"):
        connect("local:1")
    argv = ["dream", "simulate", "--users", "10", "--days", "1", "--scheduler", "local"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and INSTALL_HINT in err
    # without --scheduler, the same command runs as before
    assert main(argv[:-2]) == 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.timeout(120)
def test_an_unreachable_scheduler_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(ConfigError, match="cannot reach the Dask scheduler"):
        connect(address, timeout=2)  # no hang: pytest's timeout would fail it
    argv = ["dream", "simulate", "--users", "10", "--days", "1", "--scheduler", address]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("memlab: error: cannot reach") and err.count("\n") == 0


def test_the_scale_out_commands_parse() -> None:
    """The memlab commands of docs/scale-out.md parse, their schedulers
    are valid spellings; the dask commands are the ones the slow tests start."""
    from memlab.cli import build_parser
    from tests.dask_fixtures import on_loopback, page_commands

    commands = page_commands()
    memlab = [c for c in commands if c[0] == "memlab"]
    assert len(memlab) >= 4 and {c[1] for c in memlab} >= {"sweep", "compare", "dream"}
    for argv in memlab:
        args = build_parser().parse_args(on_loopback(argv, 8786)[1:])
        assert parse_scheduler(args.scheduler)[0] in ("local", "remote")
    assert {tuple(c[:2]) for c in commands if c[0] == "dask"} == {
        ("dask", "scheduler"),
        ("dask", "worker"),
    }


def _count_run(path: str, value: int) -> int:
    with open(path, "a", encoding="utf-8") as f:
        f.write("run\n")
    return value


def test_the_executor_runs_every_piece_submitted(dask_client: object, tmp_path: Path) -> None:
    """memlab's tasks are submitted impure (not named by hashing their arguments, which
    cost a sweep seconds of the client's CPU): two equal pieces both run."""
    from memlab.cluster import executor

    runs = tmp_path / "runs.txt"
    pool = executor(dask_client)
    first, second = (pool.submit(_count_run, str(runs), 7) for _ in range(2))
    assert first.result() == second.result() == 7
    assert runs.read_text(encoding="utf-8").count("run") == 2


def test_a_local_cluster_without_dashboard_takes_no_fixed_port(dask_client: Any) -> None:
    """The scheduler's HTTP routes (health, metrics) listen on a free port, not on the
    dashboard's 8787 that another cluster on the machine may hold; and its workers run
    the event-loop health check once a second (measured: the client's process spends
    ~30 % less CPU during a sweep than with Dask's 20 ms)."""
    import dask

    services = dask_client.scheduler_info()["services"]
    assert services and 8787 not in services.values()
    ticks = dask_client.run(lambda: dask.config.get("distributed.admin.tick.interval"))
    assert set(ticks.values()) == {"1s"}


def test_every_socket_a_local_cluster_opens_listens_on_loopback() -> None:
    """The finding: the dashboard listened on every interface (``:0``) and answered
    without authentication. Checked on the cluster's own servers and on every listening
    socket of this process and its children (scheduler, nannies, workers)."""
    pytest.importorskip("distributed")
    import psutil

    from memlab.cluster import connect

    client = connect("local:1", dashboard=True)
    try:
        scheduler = client.cluster.scheduler
        hosts = {sock.getsockname()[0] for sock in scheduler.http_server._sockets.values()}
        workers = client.run(
            lambda dask_worker: [
                s.getsockname()[0] for s in dask_worker.http_server._sockets.values()
            ]
        )
        hosts |= {host for found in workers.values() for host in found}
        me = psutil.Process()
        listening = {
            conn.laddr.ip
            for proc in [me, *me.children(recursive=True)]
            for conn in proc.net_connections(kind="inet")
            if conn.status == psutil.CONN_LISTEN
        }
        assert client.dashboard_link.startswith("http://127.0.0.1:")
    finally:
        client.close()
    assert hosts == {"127.0.0.1"} and listening == {"127.0.0.1"}
