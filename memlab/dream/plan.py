"""What one Dream run would do, before the model is called (SPEC §7.3 step 1).

``plan_run`` checks the gates, refuses a ``MEMORY.md`` that is a symbolic link,
a FIFO or a device (Dream would write it), and reads the input — through
``memlab.safefs``, inside the workspace — recording the signature of every
session log it read. It writes nothing: ``run_dream`` executes a plan, and the
CLI's dry run shows one.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from memlab.config import DreamConfig
from memlab.dream.gates import GateDecision, Open, SessionFile, Trigger, decide
from memlab.dream.inputs import DreamInput, assemble_input, read_existing, session_reader
from memlab.dream.lock import DreamLock
from memlab.safefs import Refused, check_write_target, printable_name, utf8_name
from memlab.store.layout import MEMORY_FILE, SESSIONS_DIR

log = logging.getLogger("memlab")


@dataclass(frozen=True)
class DreamPaths:
    workspace: Path

    @property
    def memory(self) -> Path:
        return self.workspace / MEMORY_FILE

    @property
    def sessions(self) -> Path:
        return self.workspace / SESSIONS_DIR

    def session(self, stem: str) -> Path:
        return self.sessions / f"{stem}.md"


def scan_sessions(sessions_dir: Path) -> list[SessionFile]:
    """``.md`` files directly in ``sessions/`` with their mtimes (none if the dir is missing).

    Not counted, with a warning: symbolic links (never followed), names that are not
    valid UTF-8, and everything when ``sessions/`` itself is a symbolic link."""
    if sessions_dir.is_symlink():
        log.warning("dream: %s is a symbolic link; not followed, no session logs", sessions_dir)
        return []
    try:
        entries = list(os.scandir(sessions_dir))
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for entry in entries:
        if not entry.name.endswith(".md"):
            continue
        if not utf8_name(entry.name):
            log.warning(
                "dream: skipped %s: file name is not valid UTF-8", printable_name(entry.path)
            )
            continue
        try:
            if entry.is_symlink():
                log.warning("dream: skipped %s: a symbolic link, not followed", entry.path)
            elif entry.is_file(follow_symlinks=False):
                found.append(
                    SessionFile(entry.name[:-3], entry.stat(follow_symlinks=False).st_mtime)
                )
        except FileNotFoundError:
            continue
    return found


@dataclass(frozen=True)
class RunPlan:
    """What one run would do, before the model is called: the gate decision and, if the
    gates are open, the input (the logs it reads, the existing memory)."""

    paths: DreamPaths
    decision: GateDecision
    seen_last: float | None
    dream_input: DreamInput | None = None
    seen_sessions: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    refused: str | None = None  # a file Dream would write is unsafe (a link, a FIFO, …)


def plan_run(
    workspace_dir: str | Path,
    *,
    now: float,
    config: DreamConfig,
    lock: DreamLock,
    trigger: Trigger = Trigger.SESSION_END,
    current_session: str | None = None,
    is_subagent: bool = False,
) -> RunPlan:
    """Gates and input of one run (reads files; writes nothing)."""
    paths = DreamPaths(Path(workspace_dir))
    seen_last = lock.last_success()
    decision = decide(
        trigger,
        config,
        seen_last,
        scan_sessions(paths.sessions),
        current_session,
        now,
        is_subagent=is_subagent,
    )
    plan = RunPlan(paths, decision, seen_last)
    if not isinstance(decision, Open):
        return plan
    try:
        check_write_target(paths.memory, paths.workspace)
    except Refused as exc:
        return replace(plan, refused=f"{exc}; Dream would write it")
    reader = session_reader(paths.sessions, paths.workspace)
    dream_input = assemble_input(
        read_existing(paths.memory, paths.workspace),
        decision.sessions,
        reader,
        max_existing_bytes=config.max_existing_bytes,
        max_input_bytes=config.max_input_bytes,
    )
    return replace(plan, dream_input=dream_input, seen_sessions=dict(reader.seen))
