"""One Dream run (SPEC §7.3): gates → input → model → lock → write → cleanup → index.

The order is c0's: the model is called *before* the lock is taken, so a model
error or timeout never touches the lock. ``execute_dream`` then takes the lock,
processes the response, writes ``MEMORY.md`` (rolling the lock back if the write
fails), and only after a successful write deletes the processed session logs
that have been quiet for ``active_grace_secs``. The index update reindexes
``MEMORY.md`` with ``dream.memory_source`` ("dream" in c0: a quirk that makes
the consolidated memory decay; "workspace" is the fix) and removes from the
index only the session paths that were actually deleted.

Every decision takes ``now`` explicitly; ``clock`` (optional) supplies the time
at which the lock is taken after the model call (the CLI passes ``time.time``).
"""

from __future__ import annotations

import enum
import logging
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from memlab.config import DreamConfig
from memlab.dream.backup import make_backup
from memlab.dream.consolidators import Consolidator
from memlab.dream.gates import GateDecision, Open, Trigger
from memlab.dream.inputs import DreamInput
from memlab.dream.lock import Busy, DreamLock
from memlab.dream.new_memory import Writer, writer_for
from memlab.dream.plan import DreamPaths, plan_run
from memlab.dream.response import Nothing, process_response
from memlab.errors import DreamError

log = logging.getLogger("memlab")


class IndexUpdater(Protocol):
    """What Dream needs from an index (``memlab.store.store.MemoryStore`` fits)."""

    def reindex_file(
        self, path: str | Path, source: str | None = None, now: float | None = None
    ) -> Any: ...

    def delete_path(self, path: str | Path) -> Any: ...


class DreamStatus(str, enum.Enum):
    GATE_CLOSED = "gate-closed"
    NO_INPUT = "no-input"  # the gates opened but no session log was readable
    MODEL_FAILED = "model-failed"  # error or timeout; the lock was not touched
    SKIPPED = "skipped"  # the lock is held by a live process
    LOCK_FAILED = "lock-failed"  # the lock file could not be written: nothing touched
    NOTHING = "nothing-to-consolidate"  # empty / NO_REPLY / no heading: no write, no deletion
    WRITE_FAILED = "write-failed"  # the lock was rolled back
    REFUSED = "refused"  # MEMORY.md is a link, a FIFO, …: nothing read or touched
    COMPLETED = "completed"


@dataclass(frozen=True)
class DreamOutcome:
    status: DreamStatus
    decision: GateDecision | None = None
    detail: str = ""
    processed: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    kept_active: tuple[str, ...] = ()
    input_bytes: int = 0
    written_chars: int = 0
    truncated: bool = False
    lock_prior: float | None = None
    index_error: str | None = None
    backup: str = ""  # the backup folder of this run, if one was made


def call_with_timeout(consolidator: Consolidator, dream_input: str, timeout: float) -> str:
    """Run the model; an exception or no answer within ``timeout`` seconds is a DreamError."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = consolidator.consolidate(dream_input)
        except BaseException as exc:  # reported to the caller as a model failure
            box["error"] = exc

    worker = threading.Thread(target=target, name="dream-model", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise DreamError(f"the consolidator gave no answer within {timeout:g} s")
    if "error" in box:
        exc = box["error"]
        raise DreamError(f"the consolidator failed: {type(exc).__name__}: {exc}") from exc
    value = box.get("value")
    if not isinstance(value, str):
        raise DreamError(f"the consolidator returned {type(value).__name__}, not text")
    return value


def cleanup(
    paths: DreamPaths,
    processed: tuple[str, ...],
    now: float,
    grace_secs: float,
    expect: Mapping[str, tuple[int, int]] | None = None,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Delete processed logs quiet for ``grace_secs``; return (deleted, kept active).

    With ``expect`` (stem → (size, mtime_ns) when read; the stale-input check), a log
    that changed since it was read is kept too: what was added is not consolidated."""
    deleted: list[str] = []
    active: list[str] = []
    for stem in processed:
        path = paths.session(stem)
        try:
            st = os.stat(path, follow_symlinks=False)
            changed = expect is not None and expect.get(stem) != (st.st_size, st.st_mtime_ns)
            if now - st.st_mtime < grace_secs or changed:
                active.append(stem)
                continue
            path.unlink()
        except FileNotFoundError:
            continue  # already gone (e.g. a duplicate run): not counted
        except OSError as exc:
            log.warning("dream: could not delete %s: %s; it stays for the next run", path, exc)
            continue
        deleted.append(stem)
    return tuple(deleted), tuple(active)


def execute_dream(
    paths: DreamPaths,
    dream_input: DreamInput,
    response: str,
    config: DreamConfig,
    now: float,
    lock: DreamLock,
    writer: Writer,
    seen_last: float | None = None,
    *,
    backup: bool = False,
    seen_sessions: Mapping[str, tuple[int, int]] | None = None,
) -> DreamOutcome:
    """SPEC §7.3 step 3: lock, process the response, write (or roll back), clean up.

    With ``dream.stale_input_check`` (not c0), a run whose lock was last stamped at
    another time than ``seen_last`` (the mtime its gates and input saw) gives the lock
    back and skips: another consolidation finished while its model was running, and
    writing its older input would drop what that run merged (and deleted); and a
    session log changed since it was read (``seen_sessions``) is not deleted. With
    ``backup`` (not c0), ``MEMORY.md`` and the logs read are copied into
    ``.dream-backups/`` before anything is written or deleted."""
    done = DreamOutcome(
        DreamStatus.SKIPPED, processed=dream_input.processed, input_bytes=dream_input.nbytes
    )
    try:
        got = lock.try_acquire(now)
    except OSError as exc:
        detail = f"cannot write {lock.path}: {exc}; check the workspace's permissions"
        return replace(done, status=DreamStatus.LOCK_FAILED, detail=detail)
    if isinstance(got, Busy):
        return replace(done, detail=got.reason)
    if config.stale_input_check and got.prior != seen_last:
        _rollback(lock, got.prior)
        return replace(done, detail="stale input: another consolidation finished meanwhile")
    done = replace(done, lock_prior=got.prior)
    result = process_response(response, config.max_response_chars)
    if isinstance(result, Nothing):
        # c0: no write, no deletion; the lock keeps its fresh mtime (restarts the time gate).
        return replace(done, status=DreamStatus.NOTHING, detail=result.reason)
    if backup:
        sessions = [paths.session(stem) for stem in dream_input.processed]
        try:
            done = replace(done, backup=str(make_backup(paths.workspace, paths.memory, sessions)))
        except OSError as exc:
            _rollback(lock, got.prior)
            detail = f"backup failed ({exc}); nothing was written or deleted"
            return replace(done, status=DreamStatus.WRITE_FAILED, detail=detail)
    try:
        writer(paths.memory, result.text)
    except Exception as exc:
        _rollback(lock, got.prior)
        return replace(done, status=DreamStatus.WRITE_FAILED, detail=f"{type(exc).__name__}: {exc}")
    except BaseException:
        _rollback(lock, got.prior)
        raise
    expect = seen_sessions if config.stale_input_check else None
    deleted, active = cleanup(paths, dream_input.processed, now, config.active_grace_secs, expect)
    return replace(
        done,
        status=DreamStatus.COMPLETED,
        deleted=deleted,
        kept_active=active,
        written_chars=len(result.text),
        truncated=result.truncated,
    )


def _rollback(lock: DreamLock, prior: float | None) -> None:
    """Roll the lock back; a failure here is logged, never allowed to hide the write error."""
    try:
        lock.rollback(prior)
    except OSError as exc:
        log.warning("dream: could not roll back %s: %s", lock.path, exc)


def update_index(
    index: IndexUpdater, paths: DreamPaths, outcome: DreamOutcome, config: DreamConfig, now: float
) -> str | None:
    """SPEC §7.3 step 4. An index error is reported, not raised: the files are already
    consistent and the next sync-on-search repairs the index."""
    try:
        index.reindex_file(paths.memory, source=config.memory_source, now=now)
        for stem in outcome.deleted:
            index.delete_path(paths.session(stem))
    except Exception as exc:  # any store failure: degrade visibly, never lose the run
        log.warning("dream: index update failed: %s", exc)
        return f"{type(exc).__name__}: {exc}"
    return None


def run_dream(
    workspace_dir: str | Path,
    consolidator: Consolidator,
    *,
    now: float,
    config: DreamConfig | None = None,
    trigger: Trigger = Trigger.SESSION_END,
    current_session: str | None = None,
    is_subagent: bool = False,
    index: IndexUpdater | None = None,
    writer: Writer | None = None,
    lock: DreamLock | None = None,
    clock: Callable[[], float] | None = None,
    backup: bool = False,
) -> DreamOutcome:
    """One complete Dream attempt for the workspace directory ``workspace_dir``.

    ``backup`` (not c0; the CLI's default) copies what the run replaces and deletes
    into ``.dream-backups/`` first."""
    config = config or DreamConfig()
    lock = lock or DreamLock.for_workspace(Path(workspace_dir), config.stale_lock_secs)
    plan = plan_run(
        workspace_dir,
        now=now,
        config=config,
        lock=lock,
        trigger=trigger,
        current_session=current_session,
        is_subagent=is_subagent,
    )
    decision, dream_input = plan.decision, plan.dream_input
    if not isinstance(decision, Open):
        return DreamOutcome(DreamStatus.GATE_CLOSED, decision=decision, detail=decision.reason())
    if plan.refused is not None:
        return DreamOutcome(DreamStatus.REFUSED, decision=decision, detail=plan.refused)
    if dream_input is None or not dream_input.processed:
        return DreamOutcome(
            DreamStatus.NO_INPUT, decision=decision, detail="no readable, non-blank session log"
        )
    try:
        response = call_with_timeout(consolidator, dream_input.text, config.model_timeout_secs)
    except DreamError as exc:
        return DreamOutcome(
            DreamStatus.MODEL_FAILED,
            decision=decision,
            detail=str(exc),
            processed=dream_input.processed,
            input_bytes=dream_input.nbytes,
        )
    acquire_at = clock() if clock is not None else now
    writer = writer or writer_for(config)
    outcome = execute_dream(
        plan.paths,
        dream_input,
        response,
        config,
        acquire_at,
        lock,
        writer,
        plan.seen_last,
        backup=backup,
        seen_sessions=plan.seen_sessions,
    )
    outcome = replace(outcome, decision=decision)
    if outcome.status is DreamStatus.COMPLETED and index is not None:
        outcome = replace(
            outcome, index_error=update_index(index, plan.paths, outcome, config, acquire_at)
        )
    return outcome
