"""Progress of a long command, on stderr: never silent for more than a moment.

A long command says at once what starts and how big it is, shows a bar for each
phase whose units it can count (the bar counts the real units, so it ends at 100 %
when the phase is done), and keeps a phase it cannot count alive with its elapsed
time::

    memlab: compare agent-memory: 3 runs (fts, hybrid, mmr)
    ranking and measuring: 100%|██████████| 3/3 [00:07<00:00, mmr]
    significance tests… 00:04

Library code reports through ``phase`` (a step it can count, or one it cannot) and
``note`` (one line); nothing is shown unless a caller turned reporting on with
``reporting``: the command line does, unless ``--quiet``. A test passes its own sink
(any callable taking an ``Event``) and reads the events in order. tqdm is imported
when the first phase is shown, not before.
"""

from __future__ import annotations

import itertools
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

DELAY = 0.5  # seconds of a command before its progress shows (a quick one shows none)
TICK_TTY = 1.0  # seconds between refreshes of an open phase on a terminal
TICK_LOG = 5.0  # … in a log file (each refresh is written out)


@dataclass(frozen=True)
class Event:
    """One thing progress says: a ``note``, or a phase's ``start``, ``advance`` or ``end``
    (``done`` of ``total`` units; ``total`` None: units not counted)."""

    kind: str
    what: str
    done: int = 0
    total: int | None = None
    detail: str = ""
    unit: str = "step"
    serial: int = 0  # which phase (phases of the same name can nest or follow)
    at: float = field(default_factory=time.time, compare=False)  # when it was said


Sink = Callable[[Event], None]

_sink: Sink | None = None  # one per process: phases reported from threads count too
_lock = threading.Lock()
_serials = itertools.count(1)


def active() -> bool:
    """Is progress shown (or recorded) at all?"""
    return _sink is not None


@contextmanager
def reporting(sink: Sink | None = None, *, enabled: bool = True) -> Iterator[None]:
    """Within the block, progress goes to ``sink`` (default: stderr, ``StderrSink``).

    ``enabled=False`` keeps the block silent. Without a sink of its own, the block keeps
    one already reporting (a test's), so a command run inside a test reports to it."""
    global _sink
    before = _sink
    own: StderrSink | None = None
    if not enabled:
        chosen: Sink | None = None
    elif sink is not None:
        chosen = sink
    elif before is not None:
        chosen = before
    else:
        chosen = own = StderrSink()
    with _lock:
        _sink = chosen
    try:
        yield
    finally:
        with _lock:
            _sink = before
        if own is not None:
            own.close()


def note(text: str) -> None:
    """One line saying what starts (and its size)."""
    sink = _sink
    if sink is not None:
        sink(Event("note", text))


class Phase:
    """A phase under way: ``advance`` it by the units done; it ends when its block does."""

    def __init__(self, sink: Sink | None, what: str, total: int | None, unit: str) -> None:
        self.sink = sink
        self.what = what
        self.total = total
        self.unit = unit
        self.done = 0
        self.detail = ""
        self.serial = next(_serials)

    def advance(self, n: int = 1, detail: str | None = None) -> None:
        self.done += n
        if detail is not None:
            self.detail = detail
        self._emit("advance")

    def describe(self, detail: str) -> None:
        """Say what the phase is at now (e.g. the run it ranks), without a unit done."""
        self.detail = detail
        self._emit("advance")

    def _emit(self, kind: str) -> None:
        if self.sink is not None:
            event = Event(
                kind, self.what, self.done, self.total, self.detail, self.unit, self.serial
            )
            self.sink(event)

    def end(self) -> None:
        self._emit("end")


def start(what: str, total: int | None = None, unit: str = "step") -> Phase:
    """A phase begun now and ended by its ``end`` (``phase`` when it fits a block)."""
    p = Phase(_sink, what, total, unit)
    p._emit("start")
    return p


@contextmanager
def phase(what: str, total: int | None = None, unit: str = "step") -> Iterator[Phase]:
    """A phase of ``total`` units (None: not counted); its start is shown at once."""
    p = start(what, total, unit)
    try:
        yield p
    finally:
        p.end()


def counted(items: list[Any], what: str, unit: str = "step") -> Iterator[Any]:
    """``items`` one by one inside a phase that counts them."""
    with phase(what, len(items), unit) as p:
        for item in items:
            yield item
            p.advance()


class Recorder:
    """A sink that keeps every event (for tests, and to check bars reach their total)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def ends(self) -> list[Event]:
        return [e for e in self.events if e.kind == "end"]


class StderrSink:
    """Notes as ``memlab: …`` lines, phases as tqdm bars (kept when done), refreshed by a
    ticker thread so an uncounted or slow phase shows its elapsed time.

    Nothing is written in the first ``DELAY`` seconds: a command that ends (or fails on
    bad input) that soon prints only its own lines; one that runs on shows, at the
    first tick, everything said so far that is still under way."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.bars: dict[int, Any] = {}  # open phases' bars by serial
        self.held: list[Event] | None = []  # events of the first DELAY seconds
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.ticker: threading.Thread | None = None

    def __call__(self, event: Event) -> None:
        with self.lock:
            if self.held is not None:
                self.held.append(event)
                self._start_ticker()
            else:
                self._show(event)

    def _show(self, event: Event) -> None:
        if event.kind == "note":
            self._write(f"memlab: {event.what}")
        elif event.kind == "start":
            self._open(event)
        else:
            self._update(event)

    def _release(self) -> None:
        """Show what the first moments said: notes, and the phases still under way."""
        held, self.held = self.held or [], None
        ended = {e.serial for e in held if e.kind == "end"}
        last: dict[int, Event] = {}
        for e in held:
            if e.kind == "note":
                self._show(e)
            elif e.serial not in ended:
                if e.kind == "start":
                    self._open(e)
                last[e.serial] = e
        for e in last.values():
            if e.kind != "start":
                self._update(e)

    def _open(self, event: Event) -> None:
        from tqdm import tqdm

        bar = tqdm(
            total=event.total,
            desc=event.what,
            unit=event.unit,
            file=self.stream,
            leave=True,
            bar_format=None if event.total is not None else "{desc}… {elapsed}{postfix}",
            mininterval=0.2,
        )
        bar.start_t = event.at  # shown late (``DELAY``): the phase began earlier
        self.bars[event.serial] = bar

    def _update(self, event: Event) -> None:
        bar = self.bars.get(event.serial)
        if bar is None:
            return
        if event.kind == "end" and event.total is None:
            bar.set_postfix_str("done", refresh=False)
        elif event.detail:
            bar.set_postfix_str(event.detail, refresh=False)
        if event.done != bar.n:
            bar.update(event.done - bar.n)
        if event.kind == "end":
            bar.close()
            del self.bars[event.serial]

    def _write(self, line: str) -> None:
        for bar in self.bars.values():
            bar.clear()
        print(line, file=self.stream, flush=True)
        for bar in self.bars.values():
            bar.refresh()

    def _start_ticker(self) -> None:
        if self.ticker is not None:
            return
        every = TICK_TTY if _isatty(self.stream) else TICK_LOG
        self.ticker = threading.Thread(target=self._tick, args=(every,), daemon=True)
        self.ticker.start()

    def _tick(self, every: float) -> None:
        if self.stop.wait(DELAY):
            return
        with self.lock:
            self._release()
        while not self.stop.wait(every):
            with self.lock:
                for bar in self.bars.values():
                    bar.refresh()

    def close(self) -> None:
        self.stop.set()
        if self.ticker is not None:
            self.ticker.join()
        with self.lock:
            for bar in self.bars.values():
                bar.close()
            self.bars.clear()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
