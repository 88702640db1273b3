"""``memlab dream run``: safe by default on a real memory (DESIGN invariant 7).

* no ``--yes`` and no ``--out``: a **dry run** — the gate decision, the logs it
  would read, what it would replace and delete; nothing is written, the
  consolidator is not called;
* ``--out DIR``: consolidate and write the new ``MEMORY.md`` into ``DIR``
  (outside the memory root); the memory, the lock and the index are untouched;
* ``--yes``: apply — with the atomic write, the stale-input check and a backup
  of what is replaced and deleted (``<workspace>/.dream-backups/``, the newest
  ``--keep-backups`` kept), unless c0's behaviour is asked for explicitly:
  ``--c0-unsafe`` (in-place write, no stale-input check, no backup) or the
  config keys ``atomic_write`` / ``stale_input_check`` set by ``--set`` or
  ``--config``.

The library's ``run_dream``, the crash study and the capacity simulator keep
c0's defaults, so its behaviour stays measurable.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

from memlab.cli.args import integer
from memlab.config import DreamConfig, with_overrides
from memlab.errors import ConfigError, DreamError

SAFE_DEFAULTS = {"atomic_write": True, "stale_input_check": True}
C0_UNSAFE = {"atomic_write": False, "stale_input_check": False}


def add_run_args(r: argparse.ArgumentParser) -> None:
    r.add_argument(
        "--consolidator",
        default="offline",
        help="offline (default), noreply, or module:function (prompt -> text)",
    )
    r.add_argument("--force", action="store_true", help="like /dream: bypass the gates")
    r.add_argument("--no-index", action="store_true", help="do not update the index")
    r.add_argument(
        "--yes",
        action="store_true",
        help="apply: write MEMORY.md and delete the consolidated logs (backed up first)",
    )
    r.add_argument(
        "--out",
        help="write the new MEMORY.md into this directory (outside the memory root) instead",
    )
    r.add_argument(
        "--c0-unsafe",
        action="store_true",
        help="c0's behaviour: in-place write, no stale-input check, no backup",
    )
    r.add_argument(
        "--keep-backups",
        type=integer(1, 10_000),
        default=20,
        help="backup folders to keep in .dream-backups/ (default 20)",
    )


def run_config(args: argparse.Namespace, config: DreamConfig, explicit: set[str]) -> DreamConfig:
    """The CLI's Dream config: safe unless c0's behaviour is asked for explicitly."""
    if args.c0_unsafe:
        return with_overrides(config, C0_UNSAFE)
    safe = {k: v for k, v in SAFE_DEFAULTS.items() if k not in explicit}
    return with_overrides(config, safe) if safe else config


def cmd_run(args: argparse.Namespace, config: DreamConfig, layout: Any, trigger: Any) -> int:
    from memlab.dream.consolidators import get_consolidator

    if args.yes and args.out:
        raise ConfigError("--yes applies to the memory and --out writes elsewhere; choose one")
    get_consolidator(args.consolidator)  # a bad name fails in a dry run too
    if args.out:
        return _to_out(args, config, layout, trigger)
    if not args.yes:
        return _dry_run(args, config, layout, trigger)
    return _apply(args, config, layout, trigger)


def _plan(args: argparse.Namespace, config: DreamConfig, layout: Any, trigger: Any) -> Any:
    from memlab.dream.lock import DreamLock
    from memlab.dream.plan import plan_run

    lock = DreamLock.for_workspace(layout.home, config.stale_lock_secs)
    plan = plan_run(layout.home, now=time.time(), config=config, lock=lock, trigger=trigger,
                    current_session=args.session, is_subagent=args.subagent)  # fmt: skip
    if plan.refused is not None:
        raise DreamError(f"{plan.refused}; replace it with a regular file or remove it")
    return plan


def _dry_run(args: argparse.Namespace, config: DreamConfig, layout: Any, trigger: Any) -> int:
    plan = _plan(args, config, layout, trigger)
    got = plan.dream_input
    reads = list(got.processed) if got is not None else []
    info = {
        "dry_run": True,
        "decision": plan.decision.kind,
        "reason": plan.decision.reason(),
        "would_read": reads,
        "input_bytes": got.nbytes if got is not None else 0,
        "would_replace": str(plan.paths.memory) if reads else None,
        "would_delete": reads,
        "write": "atomic" if config.atomic_write else "in-place (c0)",
        "stale_input_check": config.stale_input_check,
        "backup": not args.c0_unsafe,
    }
    if args.json:
        print(json.dumps(info))
        return 0
    print(f"dry run, nothing written — {plan.decision.kind}: {plan.decision.reason()}")
    if not reads:
        print("nothing to consolidate")
        return 0
    print(f"Dream would read {len(reads)} session log(s) ({info['input_bytes']} bytes of input):")
    for stem in reads:
        print(f"  {stem}")
    saved = " (backed up first in .dream-backups/)" if info["backup"] else " (no backup: c0)"
    print(f"call '{args.consolidator}', replace {plan.paths.memory} ({info['write']}){saved},")
    print(f"and delete those logs once quiet for {config.active_grace_secs:g} s{saved}")
    print("run again with --yes to apply, or with --out DIR to write the new MEMORY.md elsewhere")
    return 0


def _to_out(args: argparse.Namespace, config: DreamConfig, layout: Any, trigger: Any) -> int:
    from memlab.dream.consolidators import get_consolidator
    from memlab.dream.response import Nothing, process_response
    from memlab.dream.run import call_with_timeout
    from memlab.safefs import is_inside, write_atomic

    out = Path(args.out).expanduser().resolve()
    if is_inside(out, layout.root) or is_inside(layout.root, out):
        raise ConfigError(f"--out {args.out} overlaps the memory root; give a folder outside it")
    consolidator = get_consolidator(args.consolidator)
    plan = _plan(args, config, layout, trigger)
    if plan.dream_input is None or not plan.dream_input.processed:
        print(f"{plan.decision.kind}: {plan.decision.reason()}; nothing written")
        return 0
    response = call_with_timeout(consolidator, plan.dream_input.text, config.model_timeout_secs)
    result = process_response(response, config.max_response_chars)
    if isinstance(result, Nothing):
        print(f"nothing to consolidate: {result.reason}; nothing written")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    target = out / "MEMORY.md"
    write_atomic(target, result.text, root=out)
    if args.json:
        print(json.dumps({"out": str(target), "processed": list(plan.dream_input.processed)}))
    else:
        logs = len(plan.dream_input.processed)
        print(f"wrote {target} ({len(result.text)} characters) from {logs} session log(s); "
              "the memory is unchanged")  # fmt: skip
    return 0


def _apply(args: argparse.Namespace, config: DreamConfig, layout: Any, trigger: Any) -> int:
    from memlab.dream.backup import prune_backups
    from memlab.dream.consolidators import get_consolidator
    from memlab.dream.run import DreamStatus, run_dream

    consolidator = get_consolidator(args.consolidator)
    backup = not args.c0_unsafe
    index = None if args.no_index else _open_index(layout)
    try:
        outcome = run_dream(layout.home, consolidator, now=time.time(), config=config,
                            trigger=trigger, current_session=args.session,
                            is_subagent=args.subagent, index=index, clock=time.time,
                            backup=backup)  # fmt: skip
    finally:
        if index is not None:
            index.close()
    if outcome.status is DreamStatus.REFUSED:
        raise DreamError(f"{outcome.detail}; replace it with a regular file or remove it")
    if backup and outcome.backup:
        prune_backups(layout.home, args.keep_backups)
    _print_outcome(args, outcome)
    failed = {DreamStatus.MODEL_FAILED, DreamStatus.WRITE_FAILED, DreamStatus.LOCK_FAILED}
    return 1 if outcome.status in failed else 0


def _print_outcome(args: argparse.Namespace, outcome: Any) -> None:
    fields = {f.name: getattr(outcome, f.name) for f in dataclasses.fields(outcome)}
    fields["status"] = outcome.status.value
    fields["decision"] = outcome.decision.kind if outcome.decision else None
    if args.json:
        print(json.dumps(fields, default=list))
        return
    print(f"{outcome.status.value}: {outcome.detail or 'ok'}")
    for key in ("processed", "deleted", "kept_active"):
        if fields[key]:
            print(f"  {key}: {', '.join(fields[key])}")
    if outcome.backup:
        print(f"  backup: {outcome.backup}")
    if outcome.truncated:
        where = (f"the replaced MEMORY.md and the deleted logs are in {outcome.backup}"
                 if outcome.backup else "nothing was backed up (--c0-unsafe)")  # fmt: skip
        print(f"warning: the consolidation was cut to {outcome.written_chars} characters "
              f"(c0's cap): what followed is not in MEMORY.md; {where}",
              file=sys.stderr)  # fmt: skip
    if outcome.index_error:
        print(f"  index not updated: {outcome.index_error}", file=sys.stderr)


def _open_index(layout: Any) -> Any:
    """The workspace's index, if it exists (Dream updates it); else None."""
    if not layout.default_index_path.exists():
        return None
    from memlab.store.store import MemoryStore

    return MemoryStore.open(layout.root, layout.workspace, scan=False)
