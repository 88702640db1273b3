"""Categories built on failures: ``duplicates``, incident ``fact`` s and cause/fix ``multi-note`` s.

* ``duplicates`` — a failure recurs in 8–10 consecutive sessions of a workspace;
  each occurrence is its own section (same heading, same stack trace, same
  follow-up line, a different run id: chunk-level Jaccard stays high, so MMR can
  tell the copies apart from the rest). Each copy is its own fact, all on nugget
  1 (grade 1); the fix, written once among them without repeating the error's
  name, is nugget 2 (grade 2). More copies than ``max_results`` (6), each
  matching the question better than the fix: only a ranker that looks past the
  copies shows the fix.
* incident facts — the fix of a failure, with its trace (category ``fact``).
* cause/fix pairs — the cause is written in one session; a later one fixes "the
  sync job failure from Tuesday" without naming the error (coreference). The
  query needs both (nuggets 1 and 2).
"""

from __future__ import annotations

import random

from memlab.datasets.generator.context import Ctx, draw_gap, query_time, repeat
from memlab.datasets.generator.draft import DAY, Query, Session, Target
from memlab.datasets.generator.failures import BY_LANG, Failure
from memlab.datasets.generator.world import END, WORKSPACES, Workspace

FILES = {
    "ts": ("client", "worker", "handler", "settle", "sync", "consumer", "router", "jobs"),
    "py": ("reader", "tasks", "features", "loader", "pipeline", "writer", "score", "io"),
    "go": ("server", "handler", "store", "loop", "decode", "publish", "conn", "state"),
}
FUNCS = {
    "ts": ("processBatch", "handleEvent", "settle", "deliver", "syncAccounts", "runJob"),
    "py": ("read_batch", "build_features", "run", "load_partition", "write_rows", "score"),
    "go": ("(*Service).Handle", "(*Store).Get", "(*Loop).Run", "Decode", "(*Conn).Publish"),
}
FOLLOW_UPS = (
    "Retried by hand and it went through.",
    "It passed on the second run, as usual.",
    "Nothing else failed in that run.",
    "Not blocking; noted for the incident review.",
)
DUP_ASKS = (
    "why does {comp} keep failing with {name}",
    "{comp} {job} {name} again, what is the fix",
    "how did we fix the recurring {name} in the {comp} {job}",
)
INCIDENT_ASKS = (
    "how did we fix the {name} in the {comp} {job}",
    "{comp} {job} {name} fix",
    "what was the cause of the {name} in {comp}",
)
PAIR_ASKS = (
    "what caused the {name} in the {comp} {job} and how did we fix it",
    "{comp} {job} {name} root cause and fix",
    "why did the {comp} {job} fail with {name}, and what was the fix",
)


def trace(rng: random.Random, failure: Failure, comp: str, project: str) -> tuple[str, ...]:
    """A fenced stack trace of ``failure`` in ``comp`` of ``project`` (its frames drawn once)."""
    lines: list[str] = []
    for frame in failure.frames:
        lines.append(
            frame.format(
                comp=comp,
                project=project,
                file=rng.choice(FILES[failure.lang]),
                fn=rng.choice(FUNCS[failure.lang]),
                n=rng.randint(12, 480),
                m=rng.randint(2, 90) if failure.lang != "go" else f"{rng.randint(16, 4095):x}",
            )
        )
    if failure.lang == "py":  # Python prints the exception last
        lines = ["Traceback (most recent call last):", *lines, failure.header]
    else:
        lines.insert(0, failure.header)
    return ("", "```", *"\n".join(lines).split("\n"), "```")


def _with_log(block: tuple[str, ...], comp: str, attempts: int) -> tuple[str, ...]:
    """The fenced trace preceded by the job's log lines (the same for every copy)."""
    log = [f"[{comp}] attempt {i} failed, retrying" for i in range(1, attempts)]
    log.append(f"[{comp}] attempt {attempts} failed, giving up")
    return (*block[:2], *log, *block[2:])


def _failure(ctx: Ctx, ws: Workspace, label: str) -> tuple[str, Failure] | None:
    used = ctx.used_failures.setdefault(ws.group, set())
    free = [(c, f) for c in ws.comps for f in BY_LANG[ws.lang] if (c, f.key) not in used]
    if not free:
        return None
    comp, failure = ctx.rng.choice(free)
    used.add((comp, failure.key))
    return comp, failure


def _fix(ctx: Ctx, failure: Failure, comp: str) -> tuple[str, str]:
    """(fix phrase, its unique identifier)."""
    action, pattern = ctx.rng.choice(failure.actions)
    word = ctx.values.word()
    ident = ctx.values.unique(
        lambda: pattern.format(
            c=comp.replace("-", "_"), C=comp.capitalize(), w=ctx.values.word(), W=word.capitalize()
        )
    )
    return action.format(id=ident), ident


def _fix_line(ctx: Ctx, failure: Failure, comp: str, named: bool = True) -> tuple[str, str]:
    """(the line that explains and fixes a failure, the fix's identifier). Unnamed, the line
    does not repeat the error, as a fix found after many sightings is written."""
    action, ident = _fix(ctx, failure, comp)
    cause = ctx.rng.choice(failure.causes)
    if named:
        what = f"The {failure.name} in the {comp} {failure.job} came from {cause}"
    else:
        what = f"Root cause of the repeated {failure.job} failures in {comp} was {cause}"
    return f"{what}; fixed by {action}.", ident


def _dup_workspace(ctx: Ctx) -> Workspace:
    return ctx.rng.choices(WORKSPACES, (0.27, 0.21, 0.12, 0.2, 0.2))[0]


def _copy_sessions(ctx: Ctx, ws: Workspace, k: int, gap: float) -> list[Session] | None:
    sessions = ctx.sessions[ws.group]
    ends = [i for i in range(k - 1, len(sessions)) if sessions[i].end <= END - gap]
    if not ends:
        return None
    last = ctx.rng.choice(ends)
    return sessions[last - k + 1 : last + 1]


def add_duplicates(ctx: Ctx, count: int) -> None:
    repeat(count, lambda i: _duplicate(ctx, i))


def _duplicate(ctx: Ctx, i: int) -> bool:
    rng = ctx.rng
    ws = _dup_workspace(ctx)
    picked = _failure(ctx, ws, "dup")
    k = rng.randint(8, 10)
    gap = draw_gap(rng)
    copies = _copy_sessions(ctx, ws, k, gap)
    if picked is None or copies is None:
        return False
    comp, failure = picked
    block = _with_log(trace(rng, failure, comp, ws.group), comp, rng.randint(2, 4))
    follow = rng.choice(FOLLOW_UPS)
    targets = []
    for j, session in enumerate(copies):
        slot = rng.choice(session.slots)
        run = ctx.values.unique(lambda: f"{rng.getrandbits(24):06x}")
        again = " again" if j else ""
        text = f"{comp} {failure.job} failed{again} with {failure.name} (run {run})."
        fact = ctx.put(
            slot,
            text,
            failure.name,
            f"dup:{i}",
            group=ws.group,
            after=(*block, "", f"- {follow}"),
            comp=comp,
        )
        targets.append(Target(fact, 1, 1))
    fix_slot = rng.choice(rng.choice(copies[k // 3 :]).slots)
    fix_text, ident = _fix_line(ctx, failure, comp, named=False)
    fix = ctx.put(fix_slot, fix_text, "Changes", f"dup:{i}", group=ws.group, comp=comp)
    targets.append(Target(fix, 2, 2))
    answer_at = max(t.fact.at for t in targets)
    fields = {"comp": comp, "name": failure.name, "job": failure.job}
    ctx.queries.append(
        Query(
            "duplicates",
            ws.group,
            rng.choice(DUP_ASKS).format(**fields),
            query_time(answer_at, gap),
            answer_at,
            targets=targets,
            tags=(f"copies-{k}", f"failure-{failure.key}"),
            answer=ident,
            answer_terms=((comp, failure.name), (ident,)),
        )
    )
    return True


def add_incidents(ctx: Ctx, count: int) -> None:
    """``fact`` queries whose answer is the fix of a failure, written with its trace."""
    repeat(count, lambda i: _incident(ctx, i))


def _incident(ctx: Ctx, i: int) -> bool:
    rng = ctx.rng
    ws = ctx.workspace()
    picked = _failure(ctx, ws, "incident")
    if picked is None:
        return False
    comp, failure = picked
    gap = draw_gap(rng)
    slot = ctx.pick_slot(ctx.session_slots(ws.group), latest=END - gap)
    if slot is None:
        return False
    text, ident = _fix_line(ctx, failure, comp)
    fact = ctx.put(
        slot,
        text,
        "Debugging notes",
        f"inc:{i}",
        group=ws.group,
        after=trace(rng, failure, comp, ws.group),
        comp=comp,
    )
    fields = {"comp": comp, "name": failure.name, "job": failure.job}
    ctx.queries.append(
        Query(
            "fact",
            ws.group,
            rng.choice(INCIDENT_ASKS).format(**fields),
            query_time(slot.at, gap),
            slot.at,
            targets=[Target(fact, 2)],
            tags=("incident", f"failure-{failure.key}"),
            answer=ident,
            answer_terms=((comp, failure.name), (ident,)),
        )
    )
    return True


def add_cause_fix(ctx: Ctx, count: int) -> None:
    """``multi-note`` queries: a cause and, days later, its fix named by coreference."""
    repeat(count, lambda i: _cause_fix(ctx, i))


def _cause_fix(ctx: Ctx, i: int) -> bool:
    rng = ctx.rng
    ws = ctx.workspace()
    picked = _failure(ctx, ws, "pair")
    gap = draw_gap(rng)
    second = ctx.pick_slot(ctx.session_slots(ws.group), latest=END - gap)
    if picked is None or second is None:
        return False
    first = ctx.pick_slot(
        ctx.session_slots(ws.group),
        latest=second.at - 1 * DAY,
        earliest=second.at - 6 * DAY,
        avoid=lambda s: s.session is second.session,
    )
    if first is None:
        return False
    comp, failure = picked
    cause = rng.choice(failure.causes)
    cause_text = f"The {failure.name} in the {comp} {failure.job} was caused by {cause}."
    f1 = ctx.put(
        first,
        cause_text,
        "Debugging notes",
        f"pair:{i}",
        group=ws.group,
        after=trace(rng, failure, comp, ws.group),
        comp=comp,
    )
    action, ident = _fix(ctx, failure, comp)
    day = _weekday(first.at)
    fix_text = f"Fixed the {failure.job} failure in {comp} from {day} by {action}."
    f2 = ctx.put(second, fix_text, "Changes", f"pair:{i}", group=ws.group, comp=comp)
    fields = {"comp": comp, "name": failure.name, "job": failure.job}
    ctx.queries.append(
        Query(
            "multi-note",
            ws.group,
            rng.choice(PAIR_ASKS).format(**fields),
            query_time(second.at, gap),
            second.at,
            targets=[Target(f1, 2, 1), Target(f2, 2, 2)],
            tags=("cause-fix", "coreference", f"failure-{failure.key}"),
            answer=ident,
            answer_terms=((comp, failure.name), (ident,)),
        )
    )
    return True


def _weekday(t: float) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%A")
