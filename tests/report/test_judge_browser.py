"""``notebooks/judge.ipynb`` in JupyterLab, in headless Chromium: run it, type a grade into
the widget's key box, and the grade is in the dataset's qrels.tsv."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from memlab.cli.report import build_lab_command
from memlab.judging.example import demo_dataset
from memlab.report.shipped_paths import notebook_dir

from .browser import DevTools, non_white_share, read_rgb


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """JupyterLab serving a copy of judge.ipynb whose ``folder`` is a fresh demo dataset."""
    folder = demo_dataset(tmp_path / "data")
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    nb = nbformat.read(notebook_dir() / "judge.ipynb", as_version=4)
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    params.source = params.source.replace('folder = ""', f"folder = {str(folder)!r}", 1)
    params.source = params.source.replace('judge = ""', 'judge = "browser"', 1)
    nbformat.write(nb, notebooks / "judge.ipynb")
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        *build_lab_command(notebooks, port=port, browser=False),
        "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={token}",
        "--LabApp.expose_app_in_browser=True",
        f"--LabApp.user_settings_dir={tmp_path / 'settings'}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
        *(["--allow-root"] if os.geteuid() == 0 else []),
    ]
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/status?token={token}", timeout=5
                )
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((tmp_path / "lab.log").read_text()) from None
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/lab/tree/judge.ipynb?token={token}", folder
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
        log.close()


KEY_BOX = 'document.querySelector("input[placeholder^=\\"click here, then type\\"]")'


@pytest.mark.slow
def test_grade_a_candidate_in_jupyterlab(lab: tuple[str, Path], tmp_path: Path) -> None:
    url, folder = lab
    browser = DevTools(url, tmp_path / "chromium", free_port())
    try:
        browser.wait_for(
            "window.jupyterapp && window.jupyterapp.shell.currentWidget"
            " && window.jupyterapp.shell.currentWidget.sessionContext.session"
            " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
            " === 'idle'",
            timeout=180,
        )
        browser.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        text = browser.wait_for(
            "document.querySelector('pre.memlab-candidate').textContent", timeout=240
        )
        assert "Node" in str(text)
        assert browser.evaluate("document.querySelectorAll('pre.memlab-candidate mark').length")
        # every cell has run (the health panel is the last output): the kernel is free
        browser.wait_for("document.body.textContent.includes('Judged@5 per run')", timeout=240)
        browser.wait_for(f"{KEY_BOX} !== null", timeout=60)
        browser.evaluate(f"{KEY_BOX}.focus()")
        assert browser.evaluate(f"document.activeElement === {KEY_BOX}")
        browser.type_text("2")
        # the status line shows once the grade, its sidecar line and the digest are written
        browser.wait_for("document.body.textContent.includes('saved: the answer')", timeout=120)
        (line,) = (folder / "qrels.tsv").read_text().splitlines()
        assert line.startswith("q001\t0\t") and line.endswith("\t2")
        assert '"judge": "browser"' in (folder / "judgements.jsonl").read_text()
        browser.evaluate(f"{KEY_BOX}.scrollIntoView({{block: 'center'}})")
        rgb = read_rgb(browser.screenshot(tmp_path / "judge.png"))
        assert 0.01 < non_white_share(rgb) < 0.9  # the widget is drawn
    finally:
        browser.close()
    assert sys.executable  # the kernel ran in this interpreter's environment
