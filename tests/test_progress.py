"""Never silent (issue 30): a long command says what starts before its first long
phase, every counted bar ends at its total, and a report tells each notebook's cells.

The order and content of the progress events are read from an injected sink
(``memlab.progress.Recorder``); nothing here measures time."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import nbformat
import pytest

from memlab import progress
from memlab.cli import main
from memlab.eval.replay.prepared import Prepared
from memlab.progress import Event, Recorder, StderrSink
from memlab.report.run_report import ReportOptions, run_report
from tests.eval.conftest import write_eval_dataset
from tests.report.test_runner import write_notebook


def check_phases(events: list[Event]) -> None:
    """Every phase that starts ends, and a counted one ends at its total (100 %)."""
    started = {e.serial: e for e in events if e.kind == "start"}
    ended = {e.serial: e for e in events if e.kind == "end"}
    assert started and set(started) == set(ended), (started, ended)
    for serial, end in ended.items():
        if end.total is not None:
            assert end.done == end.total, end
        assert started[serial].what == end.what


@pytest.mark.parametrize("command", ["eval", "compare"])
def test_an_evaluation_says_what_starts_before_gathering_and_ends_every_bar(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset = write_eval_dataset(tmp_path / "evalmini")
    recorder = Recorder()
    gather = Prepared.timeline

    def timeline(self: Prepared, *args: Any, **kwargs: Any) -> Any:
        recorder(Event("note", "GATHERING"))  # the first long phase begins here
        return gather(self, *args, **kwargs)

    monkeypatch.setattr(Prepared, "timeline", timeline)
    with progress.reporting(recorder):
        assert main([command, str(dataset), "--work", str(tmp_path / "work")]) == 0
    events = recorder.events
    marker = next(i for i, e in enumerate(events) if e.what == "GATHERING")
    first = events[0]
    assert first.kind == "note" and first.what.startswith(f"{command} {dataset}")
    assert marker > 1 and events[1].kind == "start" and "loading dataset" in events[1].what
    whats = [e.what for e in events if e.kind == "start"]
    assert any(w.startswith("candidates of ") for w in whats)
    assert any(w.startswith("ranking and measuring") for w in whats)
    assert "confidence intervals" in whats
    if command == "compare":
        assert any(w.startswith("significance tests against fts") for w in whats)
        assert any(w.startswith("min_score sweep") for w in whats)
    check_phases([e for e in events if e.what != "GATHERING"])


def test_quiet_shows_no_progress(tmp_path: Path) -> None:
    dataset = write_eval_dataset(tmp_path / "evalmini")
    recorder = Recorder()
    with progress.reporting(recorder):
        assert main(["eval", str(dataset), "--quiet", "--work", str(tmp_path / "w")]) == 0
    assert recorder.events == []


def test_a_ranking_bar_counts_runs_with_the_run_beside_it() -> None:
    recorder = Recorder()
    with progress.reporting(recorder), progress.phase("ranking", 2, "run") as bar:
        bar.describe("fts: ranking")
        bar.advance(detail="fts")
        bar.advance(detail="hybrid")
    kinds = [(e.kind, e.done, e.detail) for e in recorder.events]
    assert kinds == [
        ("start", 0, ""),
        ("advance", 0, "fts: ranking"),
        ("advance", 1, "fts"),
        ("advance", 2, "hybrid"),
        ("end", 2, "hybrid"),
    ]


def test_nothing_is_reported_without_a_sink() -> None:
    assert not progress.active()
    with progress.phase("alone", 3) as bar:  # a library call outside the CLI: silent
        bar.advance(3)
    assert bar.sink is None


def test_the_stderr_bar_is_written_at_100_percent_and_a_quick_phase_not_at_all() -> None:
    stream = io.StringIO()
    sink = StderrSink(stream)
    with progress.reporting(sink):
        with progress.phase("quick", 2):  # over before the sink shows anything
            pass
        with progress.phase("slow", 4, "cell") as bar:
            bar.advance(1)
            with sink.lock:
                sink._release()  # what the ticker does once the command runs on
            bar.advance(3, detail="last")
        progress.note("after the bar")
    sink.close()
    text = stream.getvalue()
    assert "quick" not in text
    last_slow = [part for part in text.replace("\n", "\r").split("\r") if part.startswith("slow")]
    assert "4/4" in last_slow[-1] and "100%" in last_slow[-1]
    assert text.rstrip().endswith("memlab: after the bar")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_report_counts_each_notebooks_cells_to_the_end(tmp_path: Path, jobs: int) -> None:
    folder = tmp_path / "nbs"
    folder.mkdir()
    write_notebook(folder, "first", [nbformat.v4.new_code_cell("x = 1")])
    write_notebook(folder, "second", [nbformat.v4.new_code_cell("y = 2")])
    lines: list[str] = []
    recorder = Recorder()
    options = ReportOptions(
        notebooks=["first", "second"], notebook_dir=folder, out=tmp_path / "out", jobs=jobs
    )
    with progress.reporting(recorder):
        done = run_report(options, echo=lines.append)
    assert done.exit_code == 0
    events = recorder.events
    assert events[0].kind == "start" and events[0].what.startswith("report: reading")
    notes = [e.what for e in events if e.kind == "note"]
    assert notes[0].startswith("report: 2 notebook run(s)") and "first, second" in notes[0]
    cells = [e for e in events if e.kind == "end" and e.what.endswith(": cells")]
    # 4 cells: the markdown title, the parameters, papermill's injected parameters, the body
    assert sorted((e.what, e.done, e.total) for e in cells) == [
        ("first: cells", 4, 4),
        ("second: cells", 4, 4),
    ]
    running = [e.detail for e in events if e.detail.startswith("cell ")]
    assert "cell 4: x = 1" in running and "cell 4: y = 2" in running
    check_phases(events)
    assert sum("first" in line and "done in" in line for line in lines) == 1
    if jobs == 2:
        assert any(line.startswith("started first") for line in lines)


def test_dream_simulate_counts_its_blocks_after_loading_the_engine(tmp_path: Path) -> None:
    recorder = Recorder()
    with progress.reporting(recorder):
        assert main(["dream", "simulate", "--users", "20", "--days", "3", "--json"]) == 0
    starts = [e.what for e in recorder.events if e.kind == "start"]
    assert starts[0] == "loading the Dream simulator's engine"
    assert starts[1] == "simulating 20 users over 3 days"
    check_phases(recorder.events)
