"""The judging widget, driven through its model (ipywidgets without a browser): keys
typed in the key box, buttons clicked, notes, traces, adding a query, the done state."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import memlab.workbench as wb
from memlab.datasets import load_dataset, validate_dataset
from memlab.judging.pool import read_pool
from tests.judging.conftest import pooled_source

__all__ = ["pooled_source"]


@pytest.fixture
def folder(pooled_source: Path, tmp_path: Path) -> str:
    return str(shutil.copytree(pooled_source, tmp_path / "dataset"))


def test_keys_typed_in_the_key_box_grade_at_once(folder: str) -> None:
    w = wb.judge_widget(folder, judge="carol")
    first = w.session.current()
    assert first is not None and first.candidate is not None
    assert "which Node version does CI use?" in w.header.value
    assert "<mark>CI</mark>" in w.body.value and first.candidate.path in w.body.value
    w.keys.value = "2"
    assert w.keys.value == ""  # the box is a key catcher: emptied after each key
    assert load_dataset(folder).qrels["q1"] == {first.candidate.target: 2}
    assert w.status.value == "saved: the answer"
    assert w.bar.value == 1 and w.bar.max == sum(len(c) for c in read_pool(folder).values())
    second = w.session.current()
    assert second is not None and second.position == 2 and "2/" in w.body.value


def test_buttons_notes_back_and_traces(folder: str) -> None:
    w = wb.judge_widget(folder, judge="carol")
    w.notes.value = "mentions Node 18 only"
    w.buttons["0"].click()
    assert w.notes.value == ""  # notes go with the grade they were written for
    record = json.loads((Path(folder) / "judgements.jsonl").read_text().splitlines()[0])
    assert record["notes"] == "mentions Node 18 only" and record["judge"] == "carol"
    w.buttons["b"].click()
    assert "graded 0 before" in w.body.value
    w.buttons["1"].click()
    assert list(load_dataset(folder).qrels["q1"].values()) == [1]
    assert w.trace.value == ""
    w.keys.value = "t"
    assert w.show_trace.value and "rank" in w.trace.value and "fts" in w.trace.value
    w.keys.value = "x"
    assert "unknown key" in w.status.value


def test_abstention_refused_then_accepted(folder: str) -> None:
    w = wb.judge_widget(folder)
    w.press("1")
    w.press("a")
    assert w.status.value.startswith("not done: query q1 has a candidate graded relevant")
    w.press("b")
    w.press("0")
    w.press("a")
    assert w.status.value == "saved: abstention (nothing relevant)"
    assert load_dataset(folder).query("q1").abstention
    assert "q2" in w.header.value


def test_adding_a_query_and_finishing(folder: str) -> None:
    w = wb.judge_widget(folder)
    w.query.value = "postgres version of the test job"
    w.group.value = "shop-api-3f2a9c1d"
    w.add.click()
    assert w.status.value.startswith("added q001:") and w.query.value == ""
    while w.session.current() is not None:
        w.press("0")
    assert "everything is judged" in w.header.value
    assert all(b.disabled for b in w.buttons.values())
    assert validate_dataset(folder).ok


def test_the_widget_displays_as_an_ipywidget(folder: str) -> None:
    bundle = wb.judge_widget(folder)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_the_demo_folder_and_the_health_panel(tmp_path: Path) -> None:
    folder = wb.judging_folder("", str(tmp_path))
    assert Path(folder, "pool.json").is_file()
    assert wb.judging_folder(folder) == folder
    w = wb.judge_widget(folder)
    while w.session.current() is not None:
        w.press("0")
    panel = wb.judging_health_panel(folder)
    assert panel.notes[0].startswith("demo-judging: ")
    (table,) = panel.tables()
    assert list(table["run"]) == ["fts", "hybrid", "mmr"]
    assert (table["unjudged in top 5"] == 0).all()
