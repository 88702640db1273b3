"""``memlab judge DATASET``: the judging flow in a terminal.

One candidate at a time: the query, the candidate's file and lines, its text
with the query's terms highlighted (on a colour terminal), then one key:

    0 1 2   not relevant / partial / the answer (saved at once)
    s       skip: leave it for later
    a       abstention: nothing in the memory answers this query
    b       back: show the last judged candidate again (to change its grade)
    n       a note for the next grade
    t       the stage traces of the rankers that found it (hidden by default)
    +       add a query (also once everything is judged)
    q       quit (everything is already saved; run the command again to resume)

On a terminal a key acts at once; from a pipe every line is one key, and a
grade line may carry a note after the digit (``2 the v22 answer``). With no
queries yet, it asks for them first (one per line, an empty line to finish).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from memlab.errors import MemlabError
from memlab.judging.highlight import highlight_ansi
from memlab.judging.session import GRADES, Item, JudgingSession
from memlab.judging.views import KEYS, candidate_line, query_line, trace_text

RULE = "─" * 72


@dataclass
class Console:
    """Where the flow reads keys and lines and writes text (a terminal, or pipes in tests)."""

    read_line: Callable[[], str | None]  # None at end of input
    out: TextIO
    read_key: Callable[[], str | None] | None = None  # one key at once (a terminal)
    color: bool = False

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        self.say(prompt)
        return self.read_line()

    def key(self) -> str | None:
        if self.read_key is None:
            return self.read_line()
        self.out.write("> ")
        self.out.flush()
        key = self.read_key()
        self.say(key or "")
        return key


def terminal_console(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> Console:
    """A console on the process's terminal: single keys and colour when it is a tty."""

    def read_line() -> str | None:
        line = stdin.readline()
        return None if line == "" else line.rstrip("\n")

    interactive = stdin.isatty() and stdout.isatty()
    return Console(read_line, stdout, _tty_key(stdin) if interactive else None, interactive)


def _tty_key(stdin: TextIO) -> Callable[[], str | None]:
    def read_key() -> str | None:
        import termios
        import tty

        fd = stdin.fileno()
        old = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            ch = stdin.read(1)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
        return None if ch in ("", "\x04") else ch

    return read_key


def show(item: Item, console: Console) -> None:
    console.say(RULE)
    console.say(query_line(item))
    console.say(f"  {item.query.text}")
    console.say(candidate_line(item))
    c = item.candidate
    if c is None:
        return
    text = highlight_ansi(c.text, item.query.text) if console.color else c.text
    for line in text.rstrip("\n").split("\n"):
        console.say(f"  │ {line}")


def _ask_queries(session: JudgingSession, console: Console) -> None:
    console.say("no queries yet: type one per line, an empty line when done")
    while True:
        line = console.ask("query:")
        if not line or not line.strip():
            return
        _add(session, console, line)


def _add(session: JudgingSession, console: Console, text: str) -> None:
    group = None
    if len(session.groups) > 1:
        group = console.ask(f"which memory? ({', '.join(session.groups)})") or ""
    console.say("pooling it (ranking the memory as it stands at the query's time)…")
    try:
        qid = session.add_query(text, group=group)
    except MemlabError as exc:
        console.say(f"not added: {exc}")
        return
    console.say(f"added {qid}: {len(session.pool.get(qid, []))} candidates to judge")


def _act(session: JudgingSession, console: Console, key: str, note: list[str]) -> bool:
    """Do what ``key`` says; False to stop."""
    head, rest = key[:1], key[1:].strip()
    if head in ("0", "1", "2"):
        session.grade(int(head), " ".join([*note, rest]).strip())
        note.clear()
        console.say(f"saved: {GRADES[int(head)]} · {session.progress().text()}")
    elif head == "s":
        session.skip()
    elif head == "a":
        session.abstain(" ".join([*note, rest]).strip())
        note.clear()
        console.say(f"saved: abstention (nothing relevant) · {session.progress().text()}")
    elif head == "b":
        if not session.back():
            console.say("nothing judged yet in this session")
    elif head == "n":
        note.append(rest or console.ask("note:") or "")
    elif head == "t":
        item = session.current()
        if item is not None:
            console.say(trace_text(item))
    elif head == "+":
        text = rest or console.ask("query:") or ""
        if text.strip():
            _add(session, console, text)
    elif head == "q":
        return False
    elif head in ("?", "h"):
        console.say(__doc__ or "")
    else:
        console.say(f"unknown key {head!r}: {KEYS}")
    return True


def run_terminal(session: JudgingSession, console: Console) -> int:
    """The judging loop (module docstring); returns the exit status."""
    for message in session.messages:
        console.say(f"repaired: {message}")
    if not session.queries:
        _ask_queries(session, console)
    if session.unpooled():
        console.say(f"pooling {len(session.unpooled())} queries not pooled yet…")
        session.pool_missing()
    console.say(f"{session.progress().text()}; judged by {session.journal.judge}")
    note: list[str] = []
    while True:
        item = session.current()
        if item is None:
            console.say(f"everything is judged ({session.progress().text()})")
            key = console.ask("[+] add a query, anything else to finish:")
            if not key or not key.startswith("+"):
                return 0
            _act(session, console, key, note)
            continue
        show(item, console)
        console.say(KEYS)
        key = console.key()
        if key is None:
            console.say(f"stopped; saved so far: {session.progress().text()}")
            return 0
        try:
            if not _act(session, console, key.strip() or "?", note):
                console.say(f"saved: {session.progress().text()}; run again to resume")
                return 0
        except MemlabError as exc:
            console.say(f"not done: {exc}")
