"""Headless Chromium for the HTML report test: find (or install) it, take a screenshot.

Debian's ``chromium`` package; ``make setup-browser`` installs it, and so does
``ensure_chromium`` when the tests run as root on a machine with apt. The
flags keep Chromium off the network (the machines have none, and without them
it stalls) and away from any profile: a fresh ``--user-data-dir`` each time.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

NAMES = ("chromium", "chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


def find_chromium() -> str | None:
    return next((path for name in NAMES if (path := shutil.which(name))), None)


def ensure_chromium() -> str:
    """The Chromium binary; installed with apt-get when missing and we are root."""
    found = find_chromium()
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(
            ["apt-get", "install", "-y", "chromium"],
            check=False,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=900,
        )
        found = find_chromium()
    if not found:
        raise RuntimeError("Chromium is not installed; run `make setup-browser` (needs root)")
    return found


def screenshot(html: Path, png: Path, size: tuple[int, int] = (1280, 2400)) -> Path:
    chromium = ensure_chromium()
    with tempfile.TemporaryDirectory(prefix="memlab-chromium-") as profile:
        cmd = [
            chromium,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--screenshot={png}",
            f"--window-size={size[0]},{size[1]}",
            html.resolve().as_uri(),
        ]
        subprocess.run(cmd, check=True, capture_output=True, timeout=180)
    return png


def read_rgb(png: Path) -> np.ndarray:
    from matplotlib.image import imread

    pixels = imread(str(png))  # floats in [0, 1]
    return np.asarray(pixels[..., :3] * 255, dtype=np.int16)


def colour_share(rgb: np.ndarray, colour: str, tol: int = 8) -> float:
    """Share of pixels within ``tol`` of ``colour`` (``#rrggbb``) on every channel."""
    target = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.int16)
    return float(np.all(np.abs(rgb - target) <= tol, axis=-1).mean())


def non_white_share(rgb: np.ndarray) -> float:
    return float((rgb.min(axis=-1) < 235).mean())


class DevTools:
    """Headless Chromium driven through the DevTools protocol (a websocket): open a page,
    evaluate JavaScript in it, type text. ``close()`` ends the browser."""

    def __init__(self, url: str, profile: Path, port: int) -> None:
        import json
        import time
        import urllib.request

        import websocket  # websocket-client, a dependency of jupyter_server

        cmd = [
            ensure_chromium(),
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--remote-debugging-port={port}",
            "--window-size=1280,1600",
            url,
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=5) as r:
                    pages = [p for p in json.load(r) if p.get("type") == "page"]
                if pages:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.close()
                raise RuntimeError("Chromium's DevTools endpoint did not come up")
            time.sleep(0.2)
        self.ws = websocket.create_connection(
            pages[0]["webSocketDebuggerUrl"], timeout=60, suppress_origin=True
        )
        self._id = 0

    def send(self, method: str, **params: object) -> dict[str, object]:
        import json

        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, object] = reply.get("result", {})
                return result

    def evaluate(self, expression: str) -> object:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        value = result.get("result", {})
        return value.get("value") if isinstance(value, dict) else None

    def wait_for(self, expression: str, timeout: float = 120.0) -> object:
        """Poll until ``expression`` is truthy in the page; its value."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(
                f"(() => {{ try {{ return {expression}; }} catch (e) {{ return null; }} }})()"
            )
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout:.0f} s for: {expression}")
            time.sleep(0.5)

    def screenshot(self, png: Path) -> Path:
        import base64

        data = self.send("Page.captureScreenshot", format="png")["data"]
        png.write_bytes(base64.b64decode(str(data)))
        return png

    def type_text(self, text: str) -> None:
        self.send("Input.insertText", text=text)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)
