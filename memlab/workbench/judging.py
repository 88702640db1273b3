"""The judging notebook's functions: the judging widget and the judging-health table.

``judge_widget(folder)`` is an ipywidgets view of ``memlab.judging.session``:
the query, the candidate's text with the query's terms marked, buttons and
keys for the grades (click the key box, then type ``0`` ``1`` ``2``, ``s``
skip, ``a`` abstention, ``b`` back, ``t`` traces), a notes box (saved with
the next grade), a progress bar and a box to add a query. Every grade is
saved at once, as in the terminal (``memlab judge``). ``JudgeWidget.press``
is what a key does, so tests drive the widget without a browser.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from memlab.errors import MemlabError
from memlab.judging.health import judging_health
from memlab.judging.highlight import highlight_html
from memlab.judging.session import GRADES, JudgingSession
from memlab.judging.views import candidate_line, query_line, trace_text
from memlab.workbench.display import Panel

KEY_HELP = "click here, then type 0 1 2 (grade) · s skip · a abstention · b back · t traces"
BUTTONS = {
    "0": "0 · not relevant",
    "1": "1 · partial",
    "2": "2 · the answer",
    "s": "skip",
    "a": "abstention: nothing relevant",
    "b": "back",
}


def judging_folder(folder: str = "", out_dir: str = "out/judge") -> str:
    """The dataset folder to judge: ``folder``, or ("") the demo dataset built under
    ``out_dir`` from the shipped demo memory (``memlab.judging.example``)."""
    if folder:
        return folder
    from memlab.judging.example import demo_dataset

    return str(demo_dataset(Path(out_dir)))


class JudgeWidget:
    """The judging flow as ipywidgets (see the module docstring)."""

    def __init__(self, session: JudgingSession) -> None:
        import ipywidgets as w

        self.session = session
        self.header = w.HTML()
        self.body = w.HTML()
        self.status = w.HTML()
        self.bar = w.IntProgress(min=0, max=1, description="judged")
        self.buttons = {
            k: w.Button(description=label, layout=w.Layout(width="auto"))
            for k, label in BUTTONS.items()
        }
        for key, button in self.buttons.items():
            button.on_click(lambda _b, key=key: self.press(key))
        self.keys = w.Text(placeholder=KEY_HELP, layout=w.Layout(width="100%"))
        self.keys.observe(self._typed, names="value")
        self.notes = w.Textarea(placeholder="notes, saved with the next grade or abstention")
        self.show_trace = w.ToggleButton(description="show traces", value=False)
        self.show_trace.observe(lambda _c: self.render(), names="value")
        self.trace = w.HTML()
        self.query = w.Text(placeholder="a new query to add and pool")
        self.group = w.Dropdown(options=list(session.groups), description="memory")
        self.add = w.Button(description="add query")
        self.add.on_click(lambda _b: self.add_query())
        adding = [self.query, *([self.group] if len(session.groups) > 1 else []), self.add]
        self.box = w.VBox(
            [
                self.header,
                self.body,
                w.HBox(list(self.buttons.values())),
                self.keys,
                self.notes,
                w.HBox([self.bar, self.status]),
                w.HBox([self.show_trace]),
                self.trace,
                w.HBox(adding),
            ]
        )
        self.render()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)

    def _typed(self, change: dict[str, Any]) -> None:
        text = change.get("new") or ""
        if not text:
            return
        self.keys.value = ""
        self.press(text[-1])

    def press(self, key: str) -> None:
        """Do what ``key`` says (the buttons call this too), then show the next candidate."""
        s = self.session
        notes = self.notes.value.strip()
        try:
            if key in ("0", "1", "2"):
                s.grade(int(key), notes)
                self._saved(f"saved: {GRADES[int(key)]}")
            elif key == "s":
                s.skip()
                self._say("skipped: it comes back once the rest is judged")
            elif key == "a":
                s.abstain(notes)
                self._saved("saved: abstention (nothing relevant)")
            elif key == "b":
                self._say(
                    "showing the last judged candidate" if s.back() else "nothing to go back to"
                )
            elif key == "t":
                self.show_trace.value = not self.show_trace.value
            else:
                self._say(f"unknown key {key!r}: {KEY_HELP}")
        except MemlabError as exc:
            self._say(f"not done: {exc}")
        self.render()

    def add_query(self) -> None:
        group = self.group.value if len(self.session.groups) > 1 else None
        try:
            qid = self.session.add_query(self.query.value, group=group)
        except MemlabError as exc:
            self._say(f"not added: {exc}")
        else:
            self.query.value = ""
            self._say(f"added {qid}: {len(self.session.pool.get(qid, []))} candidates")
        self.render()

    def _saved(self, message: str) -> None:
        self.notes.value = ""
        self._say(message)

    def _say(self, message: str) -> None:
        self.status.value = html.escape(message)

    def render(self) -> None:
        s = self.session
        progress = s.progress()
        self.bar.max = max(progress.total, 1)
        self.bar.value = progress.judged
        self.bar.description = f"{progress.judged}/{progress.total}"
        item = s.current()
        for button in self.buttons.values():
            button.disabled = item is None
        if item is None:
            self.header.value = "<b>everything is judged</b> — add a query below, or run compare"
            self.body.value = html.escape(progress.text())
            self.trace.value = ""
            return
        self.header.value = (
            f"<div>{html.escape(query_line(item))}</div>"
            f"<div style='font-size:1.3em;font-weight:bold'>{html.escape(item.query.text)}</div>"
        )
        text = item.candidate.text if item.candidate else ""
        self.body.value = (
            f"<div>{html.escape(candidate_line(item))}</div>"
            f"<pre class='memlab-candidate' style='white-space:pre-wrap'>"
            f"{highlight_html(text, item.query.text)}</pre>"
        )
        self.trace.value = (
            f"<pre>{html.escape(trace_text(item))}</pre>" if self.show_trace.value else ""
        )


def judge_widget(folder: str, judge: str = "", qrels: str = "") -> JudgeWidget:
    """The judging widget on a dataset folder (``judge``: your name; ``qrels``: a second
    judge's file). Queries not pooled yet are pooled first."""
    session = JudgingSession.open(folder, judge=judge or None, qrels=qrels or None)
    session.pool_missing()
    return JudgeWidget(session)


def judging_health_panel(folder: str, runs: str = "", agreement: str = "") -> Panel:
    """How far judging got; Judged@k and the unjudged share of each run's top k (the
    pool's runs, or ``runs``) with the warning and command for a gap; Cohen's κ against
    ``agreement`` (another judge's qrels file) when given."""
    health = judging_health(folder, runs or None, others=[agreement] if agreement else [])
    panel = Panel("Judging health", [health.text().split("\n")[0]])
    panel.notes += [f"warning: {w}" for w in health.warnings]
    panel.notes += [f"agreement with {n}: {a.text()}" for n, a in health.agreements.items()]
    return panel.add(f"Judged@{health.depth} per run", health.table())
