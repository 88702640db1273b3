"""The terminal flow, in process: keys from a script, text to a buffer."""

from __future__ import annotations

import io
from pathlib import Path

from memlab.datasets import load_dataset
from memlab.datasets.from_memory import dataset_from_memory
from memlab.judging.highlight import ANSI_OFF, ANSI_ON, highlight_ansi, highlight_html, term_spans
from memlab.judging.session import JudgingSession
from memlab.judging.terminal import Console, run_terminal
from tests.datasets.team_memory import SHOP


def scripted(lines: list[str], color: bool = False) -> tuple[Console, io.StringIO]:
    feed = iter(lines)
    out = io.StringIO()
    return Console(lambda: next(feed, None), out, color=color), out


def test_grades_notes_trace_and_quit(pooled: Path) -> None:
    session = JudgingSession.open(pooled, judge="t")
    first = session.current()
    assert first is not None and first.candidate is not None
    console, out = scripted(["n checked the date", "2 the answer", "t", "s", "1", "q"])
    assert run_terminal(session, console) == 0
    text = out.getvalue()
    assert "query q1 · shop-api-3f2a9c1d · as of 2026-03-12T17:00:00Z" in text
    assert f"candidate 1/{first.count} · {first.candidate.path}" in text
    start = text.index("rank  chunk")
    trace = text[text.rindex("\n", 0, start) + 1 :].splitlines()
    assert trace[0].startswith("run ") and trace[2].split()[0] in ("fts", "hybrid", "mmr")
    assert "saved: the answer" in text and "saved: partial" in text
    assert "run again to resume" in text
    qrels = load_dataset(pooled).qrels["q1"]
    assert qrels[first.candidate.target] == 2 and sorted(qrels.values()) == [1, 2]
    sidecar = (pooled / "judgements.jsonl").read_text()
    assert '"notes": "checked the date the answer"' in sidecar and '"action": "skip"' in sidecar


def test_end_of_input_stops_and_everything_is_kept(pooled: Path) -> None:
    console, out = scripted(["0", "0"])
    assert run_terminal(JudgingSession.open(pooled, judge="t"), console) == 0
    assert "stopped; saved so far: 2/" in out.getvalue()
    assert len(load_dataset(pooled).qrels["q1"]) == 2


def test_queries_entered_in_the_flow(team_memory: Path, tmp_path: Path) -> None:
    dataset_from_memory(team_memory, tmp_path / "ds")  # no queries file
    session = JudgingSession.open(tmp_path / "ds", judge="t")
    console, out = scripted(
        ["redis cache expiry", SHOP, "", "a", "+how do I run the tests", "nowhere", "q"]
    )
    run_terminal(session, console)
    text = out.getvalue()
    assert "no queries yet" in text and "added q001:" in text
    assert "not added: unknown group 'nowhere'" in text
    ds = load_dataset(tmp_path / "ds")
    assert [(q.query_id, q.text, q.group, q.abstention) for q in ds.queries] == [
        ("q001", "redis cache expiry", SHOP, True)
    ]


def test_query_terms_are_highlighted() -> None:
    text = "Moved CI to Node 22; node_modules cached. The node is fine."
    query = "which Node version does CI use?"
    marked = [text[a:b] for a, b in term_spans(text, query)]
    assert marked == ["CI", "Node", "node"]  # keywords only, whole tokens, any case
    assert highlight_ansi(text, query).count(ANSI_ON) == 3
    assert f"{ANSI_ON}Node{ANSI_OFF} 22" in highlight_ansi(text, query)
    assert highlight_html("<b>Node</b>", query) == "&lt;b&gt;<mark>Node</mark>&lt;/b&gt;"


def test_colour_only_on_a_terminal(pooled: Path) -> None:
    console, out = scripted(["q"], color=True)
    run_terminal(JudgingSession.open(pooled, judge="t"), console)
    assert ANSI_ON in out.getvalue()
    console, out = scripted(["q"])
    run_terminal(JudgingSession.open(pooled, judge="t"), console)
    assert ANSI_ON not in out.getvalue()
