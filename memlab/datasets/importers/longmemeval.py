"""LongMemEval (Wu et al., 2024) → memlab dataset.

Mapping:

* every question is its own memory group (id = ``question_id``) whose ``as_of``
  is the ``question_date``; its memory root holds one workspace
  ``chat-<hash8(question_id)>`` with one session log per haystack session,
  ``sessions/YYYY-MM-DD-chat-<sid8>.md`` where ``sid8 = hash8(session id)`` (the
  upstream ids start with ``answer_`` for evidence sessions, so they never
  appear in file names or text; ``files.jsonl`` keeps them as ``origin_id``);
* a session log is rendered by ``render_conversation``: title line with the
  session date, then one block per turn (``**user**`` / ``**assistant**``);
  it is indexed at the session's date; ``files.jsonl`` keeps the upstream turn
  ids as ``record_ids`` (``<session id>_<n>``, n from 1 over all turns, as the
  upstream retrieval evaluation names them);
* two judgement levels: ``session`` (default, ``qrels.tsv``: every file of an
  ``answer_session_ids`` session, grade 2) and ``turn`` (``qrels.turn.tsv``: the
  line span of every ``has_answer`` turn, grade 2);
* ``_abs`` questions are kept with ``abstention: true`` and no judgements;
  questions whose evidence has no user turn are tagged ``no-user-evidence``
  (the official retrieval evaluation skips both), questions without any
  ``has_answer`` turn are tagged ``no-turn-evidence``; ``category`` is the
  ``question_type`` and ``answer`` the upstream answer;
* the same session id twice in one haystack gives two files (the second's
  sid8 hashes ``<id>#1``);
* sessions dated after the question (upstream has some, on the same day):
  ``clamp`` (default) indexes them at the question date, ``keep`` keeps their
  date (validation then warns), ``drop`` leaves them out.

Dates such as ``2023/05/20 (Sat) 02:21`` are read as UTC.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from memlab.datasets.fields import ID_RE
from memlab.datasets.importers._common import (
    ImportOptions,
    ImportResult,
    file_sha256,
    hash8,
    load_json,
    option_as_of,
    progress,
    render_conversation,
)
from memlab.datasets.targets import span_target
from memlab.datasets.writer import DatasetWriter
from memlab.errors import DatasetError, unknown_name
from memlab.store.layout import session_file_name
from memlab.timefmt import utc_date, utc_seconds

_DATE = re.compile(r"\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})\s*")
_REQUIRED = (
    "question_id",
    "question_type",
    "question",
    "question_date",
    "haystack_dates",
    "haystack_session_ids",
    "haystack_sessions",
    "answer_session_ids",
)
FUTURE_POLICIES = ("clamp", "keep", "drop")
LICENCE = "MIT (LongMemEval, Wu et al. 2024)"
ORIGIN = "LongMemEval (Wu et al., 2024, arXiv:2410.10813), github.com/xiaowu0162/LongMemEval"


def parse_lme_date(text: Any) -> float:
    match = _DATE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"date {text!r} is not like '2023/05/20 (Sat) 02:21'")
    y, mo, d, h, mi = (int(g) for g in match.groups())
    return utc_seconds(y, mo, d, h, mi)


def turn_ids(session_id: str, turns: list[Any]) -> list[str]:
    """The upstream evaluation's turn ids: ``<session id>_<n>``, n counting every turn
    of the session from 1 (user and assistant alike)."""
    return [f"{session_id}_{n}" for n in range(1, len(turns) + 1)]


def _check(questions: Any) -> list[str]:
    """Every schema problem of the upstream file (the import stops if there is one)."""
    if not isinstance(questions, list):
        return ["expected a JSON array of question objects"]
    problems = []
    for i, q in enumerate(questions):
        missing = [k for k in _REQUIRED if not isinstance(q, dict) or k not in q]
        if missing:
            problems.append(f"question #{i}: missing {', '.join(missing)}")
            continue
        n = len(q["haystack_session_ids"])
        if len(q["haystack_dates"]) != n or len(q["haystack_sessions"]) != n:
            problems.append(f"question {q['question_id']}: haystack lists have different lengths")
        elif not all(
            isinstance(s, list) and all(isinstance(t, dict) for t in s)
            for s in q["haystack_sessions"]
        ):
            problems.append(f"question {q['question_id']}: a session is not a list of turn objects")
        if not isinstance(q["question_id"], str) or not ID_RE.fullmatch(q["question_id"]):
            problems.append(f"question #{i}: question_id {q['question_id']!r} is not a usable id")
    return problems


def import_longmemeval(src: Path, dest: Path, options: ImportOptions) -> ImportResult:
    """Convert an upstream LongMemEval JSON file (oracle, S or M) into a dataset at ``dest``."""
    if options.future_sessions not in FUTURE_POLICIES:
        raise DatasetError(
            unknown_name("future-sessions policy", options.future_sessions, FUTURE_POLICIES)
        )
    questions = load_json(src, "LongMemEval")
    problems = _check(questions)
    if problems:
        raise DatasetError(f"{src} is not in the LongMemEval format", problems=problems)
    questions = questions[: options.limit] if options.limit is not None else questions
    if not questions:
        raise DatasetError(f"{src} holds no questions to import")
    try:
        as_of = option_as_of(options, max(parse_lme_date(q["question_date"]) for q in questions))
    except ValueError as exc:
        raise DatasetError(f"{src}: {exc}") from None
    result = ImportResult(dest)
    counts: Counter[str] = Counter()
    writer = DatasetWriter(
        dest,
        name=options.name or src.stem.replace("_", "-"),
        licence=options.licence or LICENCE,
        origin=options.origin or f"{ORIGIN}; file {src.name} sha256:{file_sha256(src)}",
        description=options.description
        or f"LongMemEval questions from {src.name}, one memory per question.",
        as_of=as_of,
        levels=("session", "turn"),
        grouped=True,
        force=options.force,
        import_info={
            "kind": "longmemeval",
            "source": src.name,
            "options": {"future_sessions": options.future_sessions, "limit": options.limit},
        },
    )
    for q in progress(questions, "longmemeval", "question"):
        try:
            _import_question(writer, q, options.future_sessions, counts, result.notes)
        except ValueError as exc:
            raise DatasetError(f"{src}: question {q['question_id']}: {exc}") from None
    writer.manifest["import"]["counts"] = dict(sorted(counts.items()))
    writer.manifest["import"]["notes"] = result.notes
    writer.finish()
    result.counts = dict(sorted(counts.items()))
    return result


def _import_question(
    writer: DatasetWriter, q: dict[str, Any], policy: str, counts: Counter[str], notes: list[str]
) -> None:
    gid = q["question_id"]
    as_of = parse_lme_date(q["question_date"])
    workspace = f"chat-{hash8(gid)}"
    writer.add_group(gid, as_of=as_of, workspace=workspace)
    files, turn_targets, user_evidence = _write_sessions(
        writer, q, gid, workspace, as_of, policy, counts, notes
    )
    abstention = gid.endswith("_abs")
    tags = []
    if not abstention and not user_evidence:
        tags.append("no-user-evidence")
    if not abstention and not turn_targets:
        tags.append("no-turn-evidence")
    writer.add_query(
        gid,
        str(q["question"]),
        group=gid,
        category=str(q["question_type"]),
        tags=tags,
        abstention=abstention,
        answer=str(q.get("answer", "")),
    )
    counts["questions"] += 1
    counts["abstention"] += abstention
    counts.update(tags)
    if abstention:
        return
    for sid in q["answer_session_ids"]:
        if sid not in files:
            notes.append(f"{gid}: answer session {sid} is not in the haystack (or was dropped)")
        for rel in files.get(sid, []):
            writer.judge(gid, rel, 2, level="session")
    for target in turn_targets:
        writer.judge(gid, target, 2, level="turn")


def _write_sessions(
    writer: DatasetWriter,
    q: dict[str, Any],
    gid: str,
    workspace: str,
    as_of: float,
    policy: str,
    counts: Counter[str],
    notes: list[str],
) -> tuple[dict[str, list[str]], list[str], bool]:
    """Write the haystack.

    Returns {session id: [files]}, the turn targets, and whether a user turn is evidence.
    """
    files: dict[str, list[str]] = {}
    used: set[str] = set()
    turn_targets: list[str] = []
    user_evidence = False
    seen: Counter[str] = Counter()
    for sid, date, turns in zip(
        q["haystack_session_ids"], q["haystack_dates"], q["haystack_sessions"], strict=True
    ):
        when = parse_lme_date(date)
        if when > as_of:
            counts[f"future_sessions_{policy}"] += 1
            if policy == "drop":
                continue
            when = min(when, as_of) if policy == "clamp" else when
        key = sid if seen[sid] == 0 else f"{sid}#{seen[sid]}"
        seen[sid] += 1
        if seen[sid] > 1:
            counts["duplicate_sessions"] += 1
            notes.append(
                f"{gid}: session {sid} appears {seen[sid]} times; written once per appearance"
            )
        sid8 = hash8(key)
        while sid8 in used:  # never happens in practice; keeps names unique
            key += "+"
            sid8 = hash8(key)
        used.add(sid8)
        rel = f"{workspace}/sessions/{session_file_name(utc_date(when), 'chat', sid8)}"
        pairs = [(str(t.get("role", "unknown")), str(t.get("content", ""))) for t in turns]
        rendered = render_conversation(f"Chat session, {date}", pairs)
        writer.add_file(
            rel, rendered.text, when, group=gid, origin_id=sid, record_ids=turn_ids(sid, turns)
        )
        files.setdefault(sid, []).append(rel)
        counts["sessions"] += 1
        for turn, (first, last) in zip(turns, rendered.spans, strict=True):
            if turn.get("has_answer"):
                turn_targets.append(span_target(rel, first, last))
                user_evidence = user_evidence or turn.get("role") == "user"
    return files, turn_targets, user_evidence
