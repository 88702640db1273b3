"""Where work runs when one machine's processes are not enough: a Dask cluster.

One home for choosing the place: ``--scheduler`` in the CLI and ``connect`` (or
``memlab.workbench.cluster``) in Python take the same spelling —

* ``local``      a ``LocalCluster`` with one single-threaded worker process per core;
* ``local:N``    the same with ``N`` workers;
* ``tcp://HOST:PORT`` (or ``tls://…``) an existing ``dask scheduler``.

Dask is optional (``pip install 'memlab[dask]'``) and imported only here, only
when a scheduler is asked for; without it memlab runs as before (its own
process pool, ``memlab.parallel``). The work itself is the same pure pieces
(``sweep.work.score_chunk``, ``dream.sim.fleet.simulate_block``, …) run through
``Client.get_executor()``, so results never depend on where they ran; Dask
retries a piece whose worker died.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from memlab.errors import ConfigError
from memlab.parallel import available_cores

CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler before giving up
INSTALL_HINT = "pip install 'memlab[dask]'"
_LOCAL = re.compile(r"local(?::(\d+))?")
_REMOTE = re.compile(r"(tcp|tls|inproc|ucx)://\S+")

__all__ = ["CONNECT_TIMEOUT", "connect", "executor", "parse_scheduler", "scatter", "worker_count"]


def parse_scheduler(spec: str) -> tuple[str, int | None]:
    """``("local", workers or None)`` or ``("remote", None)``; ``ConfigError`` otherwise."""
    text = spec.strip()
    local = _LOCAL.fullmatch(text)
    if local:
        n = local.group(1)
        if n is not None and int(n) < 1:
            raise ConfigError(f"--scheduler local:N needs N >= 1, got '{spec}'")
        return "local", int(n) if n else None
    if _REMOTE.fullmatch(text):
        return "remote", None
    raise ConfigError(f"--scheduler expects local, local:N or tcp://HOST:PORT, got '{spec}'")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ConfigError(
            f"--scheduler needs Dask, which is not installed: {INSTALL_HINT}"
        ) from None
    return distributed


def connect(
    spec: str = "local",
    *,
    timeout: float = CONNECT_TIMEOUT,
    processes: bool = True,
    dashboard: bool = True,
    warmers: Sequence[Callable[[], object]] = (),
) -> Any:
    """A ``distributed.Client`` for ``spec`` (see the module docstring). A local cluster
    is closed with its client (``client.close()`` or ``with connect(...) as client``).
    An unreachable scheduler is a ``ConfigError`` after ``timeout`` seconds.

    ``warmers`` run once on every worker before the client is returned (``warm_worker``):
    the layers whose work runs there hand in theirs (``memlab.sweep.work.warm_worker``,
    ``memlab.dream.sim.fleet.warm_worker``), so this module imports none of them."""
    kind, workers = parse_scheduler(spec)
    distributed = _distributed()
    if kind == "local":
        import dask

        # measured here: Dask's 10 ms sampling profiler slows numpy-heavy pieces up to 2x,
        # and its MALLOC_TRIM_THRESHOLD_ (large arrays unmapped and faulted in again on
        # every allocation) a fleet block by 38 %; a LocalCluster runs without both. Its
        # event-loop health check wakes the scheduler, each nanny and each worker every
        # 20 ms: on cores the workers share with the scheduler, once a second leaves this
        # process ~30 % less CPU during a sweep (the check only logs a loop stuck for 3 s)
        environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
        environ["MALLOC_TRIM_THRESHOLD_"] = None  # None: not set in the workers
        quick = {
            "distributed.worker.profile.enabled": False,
            "distributed.nanny.pre-spawn-environ": environ,
            "distributed.admin.tick.interval": "1s",
        }
        with dask.config.set(quick):
            cluster = distributed.LocalCluster(
                n_workers=workers or available_cores(),
                threads_per_worker=1,
                processes=processes,
                # a free port even without the dashboard: the scheduler's HTTP routes
                # (health, metrics) would otherwise take 8787, another cluster's port
                dashboard_address="127.0.0.1:0",  # loopback, like everything memlab opens
                scheduler_kwargs={"dashboard": dashboard},
                host="127.0.0.1",
            )
        client = distributed.Client(cluster)
        _close_cluster_with(client, cluster)
    else:
        try:
            client = distributed.Client(spec.strip(), timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise ConfigError(
                f"cannot reach the Dask scheduler at {spec.strip()} within {timeout:g} s "
                f"({type(exc).__name__}): start one with `dask scheduler` and workers with "
                "`dask worker ADDRESS`, or use --scheduler local"
            ) from None
    if warmers:
        client.run(warm_worker, tuple(warmers))
    return client


def warm_worker(warmers: Sequence[Callable[[], object]]) -> None:
    """Run once on every worker when memlab connects: each warm-up the caller handed in
    (unpickling one imports its module there), so the first piece of work does not pay."""
    for warm in warmers:
        warm()


def _close_cluster_with(client: Any, cluster: Any) -> None:
    close = client.close

    def close_both(*args: Any, **kwargs: Any) -> Any:
        try:
            return close(*args, **kwargs)
        finally:
            cluster.close()

    client.close = close_both


def executor(client: Any) -> Any:
    """The client as a ``concurrent.futures.Executor`` (what memlab's runners take).

    Its tasks are not "pure": Dask would otherwise hash every argument of every task to
    name it (measured here: a 10,000-configuration sweep spent 1–2 s of the client's
    CPU hashing its configurations, on the cores the workers need); each piece of
    memlab's work is submitted once, so there is nothing to deduplicate."""
    return client.get_executor(pure=False)


def worker_count(client: Any) -> int:
    """Workers the cluster has now (at least 1)."""
    return max(1, len(client.scheduler_info().get("workers", {})))


def scatter(client: Any, value: Any) -> Any:
    """``value`` shipped once to every worker; pass the returned future as an argument
    of the pieces instead of the value (one copy per worker, not per task). Not hashed
    (``hash=False``): naming it by its contents would read all of it once more."""
    return client.scatter(value, broadcast=True, hash=False)
