"""``memlab judge`` in a real process, driven through its pipes (tests only)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

KEYS = "[0] not relevant"


class Judge:
    """``memlab judge`` in a real process, driven through its pipes."""

    def __init__(self, folder: Path | None, *args: str, cwd: Path | None = None) -> None:
        argv = ["judge", str(folder), "--judge", "bob", *args] if folder else list(args)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "memlab", *argv],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def until(self, *markers: str, timeout: float = 120.0) -> list[str]:
        """The lines up to and including the first holding one of ``markers``."""
        out = []
        while True:
            line = self.lines.get(timeout=timeout)
            assert line is not None, f"ended before {markers!r}:\n" + "\n".join(self.seen[-30:])
            self.seen.append(line)
            out.append(line)
            if any(m in line for m in markers):
                return out

    def expect(self, marker: str, timeout: float = 120.0) -> str:
        while True:
            line = self.lines.get(timeout=timeout)
            assert line is not None, f"ended before {marker!r}:\n" + "\n".join(self.seen[-30:])
            self.seen.append(line)
            if marker in line:
                return line

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        assert self.proc.wait(timeout=60) == -signal.SIGKILL


def shown_target(judge: Judge) -> str:
    """The target of the candidate the judge shows next (``path#La-Lb``)."""
    line = judge.expect("candidate ")
    path, _, lines = line.split(" · ")[1].partition(" lines ")
    start, _, end = lines.partition("-")
    return f"{path}#L{start}-L{end}"
