"""LoCoMo (Maharana et al., 2024, ``locomo10.json``) → memlab dataset.

Mapping:

* every conversation is a memory group (id = ``sample_id``) with one workspace
  ``locomo-<hash8(id)>``; each ``session_N`` key (the date keys are not
  enumerated: some conversations carry ``session_N_date_time`` without a
  session) becomes ``sessions/YYYY-MM-DD-session-N-<sid8>.md``, indexed at
  ``session_N_date_time`` ("1:56 pm on 8 May, 2023", read as UTC); the group's
  ``as_of`` is its latest session time;
* turns are rendered one block per turn with the speaker's name; an image turn
  adds a line ``[image: <blip_caption>]``;
* query ids are ``<sample_id>-q<NNN>`` (1-based position in ``qa``); ``category``
  is the name of the upstream number (1 multi-hop, 2 temporal, 3 open-domain,
  4 single-hop, 5 adversarial), ``answer`` the ``answer`` (or
  ``adversarial_answer``);
* judgement levels ``session`` (default: files holding an evidence turn) and
  ``turn`` (the evidence turns' line spans), all grade 2;
* adversarial questions (category 5) ask about things the conversation does
  not say (the answer is that it does not say them); their evidence turns are
  judged like every other question's, as the paper's retrieval evaluation does,
  and they are tagged ``adversarial`` (``--exclude-tag adversarial`` leaves
  them out);
* ``files.jsonl`` keeps each session's turn ids (``dia_id``, e.g. ``D1:3``) as
  ``record_ids``;
* malformed evidence is repaired when the repair is unambiguous and names an
  existing turn — ``"D8:6; D9:17"`` is split, ``"D30:05"`` → ``D30:5``,
  ``"D:11:26"`` → ``D11:26`` — every repair and every entry that cannot be
  resolved is listed in the result's notes (and in the manifest); a question
  left without evidence is tagged ``no-evidence`` (validation then warns).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from memlab.datasets.importers._common import (
    ImportOptions,
    ImportResult,
    file_sha256,
    hash8,
    load_json,
    option_as_of,
    progress,
    render_conversation,
    safe_id,
)
from memlab.datasets.targets import span_target
from memlab.datasets.writer import DatasetWriter
from memlab.errors import DatasetError
from memlab.store.layout import session_file_name
from memlab.timefmt import utc_date, utc_seconds

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
LICENCE = "as published by github.com/snap-research/locomo (see its LICENSE.txt)"
ORIGIN = "LoCoMo (Maharana et al., 2024, arXiv:2402.17753), github.com/snap-research/locomo"
_SESSION_KEY = re.compile(r"session_(\d+)")
_WHEN = re.compile(
    r"\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*", re.IGNORECASE
)
_MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
        start=1,
    )
}
_DIA = re.compile(r"D:?0*(\d+):0*(\d+)", re.IGNORECASE)


def parse_locomo_time(text: Any) -> float:
    match = _WHEN.fullmatch(text) if isinstance(text, str) else None
    month = _MONTHS.get(match.group(5)[:3].lower()) if match else None
    if match is None or month is None:
        raise ValueError(f"session time {text!r} is not like '1:56 pm on 8 May, 2023'")
    hour = int(match.group(1)) % 12 + (12 if match.group(3).lower() == "pm" else 0)
    return utc_seconds(int(match.group(6)), month, int(match.group(4)), hour, int(match.group(2)))


def repair_evidence(raw: Any, known: set[str]) -> tuple[list[str], list[str]]:
    """(resolved dia_ids, notes). Splits lists written as one string, normalises
    ``D:11:26`` and leading zeros, keeps only ids of existing turns."""
    entries = raw if isinstance(raw, list) else [raw]
    resolved: list[str] = []
    notes: list[str] = []
    for entry in entries:
        if not isinstance(entry, str):
            notes.append(f"evidence {entry!r} is not a string: skipped")
            continue
        pieces = [p for p in re.split(r"[;,\s]+", entry) if p]
        if len(pieces) > 1:
            notes.append(f"evidence {entry!r} split into {', '.join(repr(p) for p in pieces)}")
        for piece in pieces:
            match = _DIA.fullmatch(piece)
            fixed = f"D{int(match.group(1))}:{int(match.group(2))}" if match else None
            if piece in known:
                resolved.append(piece)
            elif fixed is not None and fixed in known:
                notes.append(f"evidence {piece!r} read as {fixed!r}")
                resolved.append(fixed)
            else:
                notes.append(f"evidence {piece!r} names no turn of this conversation: dropped")
    return list(dict.fromkeys(resolved)), notes


def import_locomo(src: Path, dest: Path, options: ImportOptions) -> ImportResult:
    """Convert ``locomo10.json`` (a list of conversations) into a dataset at ``dest``."""
    data = load_json(src, "LoCoMo")
    if not isinstance(data, list) or not all(
        isinstance(c, dict) and "conversation" in c for c in data
    ):
        raise DatasetError(
            f"{src} is not in the LoCoMo format: expected a list of objects with 'conversation'"
        )
    data = data[: options.limit] if options.limit is not None else data
    convs, problems = [], []
    for i, sample in enumerate(data):
        try:
            convs.append(_parse_conversation(i, sample))
        except ValueError as exc:
            problems.append(f"conversation #{i}: {exc}")
    if problems:
        raise DatasetError(f"{src} cannot be imported", problems=problems)
    if not convs:
        raise DatasetError(f"{src} holds no conversations to import")
    as_of = option_as_of(options, max(c["as_of"] for c in convs))
    result = ImportResult(dest)
    counts: Counter[str] = Counter()
    writer = DatasetWriter(
        dest,
        name=options.name or "locomo",
        licence=options.licence or LICENCE,
        origin=options.origin or f"{ORIGIN}; file {src.name} sha256:{file_sha256(src)}",
        description=options.description or "LoCoMo conversations, one memory per conversation.",
        as_of=as_of,
        levels=("session", "turn"),
        grouped=True,
        force=options.force,
        import_info={"kind": "locomo", "source": src.name, "options": {"limit": options.limit}},
    )
    for conv in progress(convs, "locomo", "conversation"):
        _write_conversation(writer, conv, counts, result.notes)
    writer.manifest["import"]["counts"] = dict(sorted(counts.items()))
    writer.manifest["import"]["notes"] = result.notes
    writer.finish()
    result.counts = dict(sorted(counts.items()))
    return result


def _parse_conversation(index: int, sample: dict[str, Any]) -> dict[str, Any]:
    conv = sample["conversation"]
    if not isinstance(conv, dict):
        raise ValueError("'conversation' is not an object")
    gid = safe_id(str(sample.get("sample_id") or f"conv-{index}"))
    sessions = []
    for key, turns in conv.items():
        match = _SESSION_KEY.fullmatch(key)
        if match is None or not isinstance(turns, list):
            continue
        number = int(match.group(1))
        when = parse_locomo_time(conv.get(f"{key}_date_time"))
        sessions.append((number, when, conv.get(f"{key}_date_time"), turns))
    if not sessions:
        raise ValueError(f"{gid} has no session_N lists")
    qa = sample.get("qa", [])
    if not isinstance(qa, list):
        raise ValueError(f"{gid}: 'qa' is not a list")
    return {
        "id": gid,
        "sessions": sorted(sessions, key=lambda s: s[0]),
        "qa": qa,
        "as_of": max(s[1] for s in sessions),
    }


def _write_conversation(
    writer: DatasetWriter, conv: dict[str, Any], counts: Counter[str], notes: list[str]
) -> None:
    gid, workspace = conv["id"], f"locomo-{hash8(conv['id'])}"
    writer.add_group(gid, as_of=conv["as_of"], workspace=workspace)
    turns_at: dict[str, tuple[str, str]] = {}  # dia_id -> (file, span target)
    for number, when, label, turns in conv["sessions"]:
        rel = f"{workspace}/sessions/" + session_file_name(
            utc_date(when), f"session-{number}", hash8(f"{gid}/session_{number}")
        )
        pairs = [
            (str(t.get("speaker", "unknown")), _turn_text(t)) for t in turns if isinstance(t, dict)
        ]
        rendered = render_conversation(f"Session {number}, {label}", pairs)
        dialog = [t for t in turns if isinstance(t, dict)]
        ids = [
            t["dia_id"] if isinstance(t.get("dia_id"), str) else f"session_{number}#{i}"
            for i, t in enumerate(dialog, start=1)
        ]
        writer.add_file(
            rel, rendered.text, when, group=gid, origin_id=f"session_{number}", record_ids=ids
        )
        counts["sessions"] += 1
        for turn, (first, last) in zip(dialog, rendered.spans, strict=True):
            if isinstance(turn.get("dia_id"), str):
                turns_at[turn["dia_id"]] = (rel, span_target(rel, first, last))
    for i, item in enumerate(conv["qa"], start=1):
        _write_question(writer, gid, f"{gid}-q{i:03d}", item, turns_at, counts, notes)


def _turn_text(turn: dict[str, Any]) -> str:
    text = str(turn.get("text", ""))
    caption = turn.get("blip_caption")
    return f"{text}\n[image: {caption}]" if isinstance(caption, str) and caption.strip() else text


def _write_question(
    writer: DatasetWriter,
    gid: str,
    qid: str,
    item: Any,
    turns_at: dict[str, tuple[str, str]],
    counts: Counter[str],
    notes: list[str],
) -> None:
    if not isinstance(item, dict) or not isinstance(item.get("question"), str):
        notes.append(f"{qid}: not a question object: skipped")
        counts["skipped_questions"] += 1
        return
    category = item.get("category")
    name = CATEGORIES.get(category) if isinstance(category, int) else None
    evidence, repairs = repair_evidence(item.get("evidence", []), set(turns_at))
    notes += [f"{qid}: {n}" for n in repairs]
    counts["evidence_repaired"] += sum("read as" in n or "split into" in n for n in repairs)
    counts["evidence_dropped"] += sum("dropped" in n or "skipped" in n for n in repairs)
    tags = [] if evidence else ["no-evidence"]
    if category == 5:
        tags.append("adversarial")
    answer = item.get("answer", item.get("adversarial_answer"))
    writer.add_query(
        qid,
        item["question"],
        group=gid,
        category=name or f"category-{category}",
        tags=tags,
        answer=None if answer is None else str(answer),
    )
    counts["questions"] += 1
    counts[f"category_{name or category}"] += 1
    counts["no_evidence"] += not evidence
    for dia in evidence:
        rel, target = turns_at[dia]
        writer.judge(qid, rel, 2, level="session")
        writer.judge(qid, target, 2, level="turn")
