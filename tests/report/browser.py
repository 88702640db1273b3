"""Headless Chromium for the HTML report test: find (or install) it, take a screenshot.

Debian's ``chromium`` package; ``make setup-browser`` installs it, and so does
``ensure_chromium`` when the tests run as root on a machine with apt. The
flags keep Chromium off the network (the machines have none, and without them
it stalls) and away from any profile: a fresh ``--user-data-dir`` each time.
"""

from __future__ import annotations

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
