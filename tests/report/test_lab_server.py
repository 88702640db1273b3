"""``memlab lab DIR`` starts a real JupyterLab on the working copy, with JupyterLab's own
arguments passed through (slow)."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from memlab.report.shipped_paths import notebook_dir

from .test_judge_browser import free_port

pytestmark = pytest.mark.slow


def test_lab_serves_the_working_copy(tmp_path: Path) -> None:
    work = tmp_path / "my lab"
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        sys.executable,
        "-m",
        "memlab",
        "lab",
        str(work),
        "--no-browser",
        "--port",
        str(port),
        # JupyterLab's own, passed through
        "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={token}",
        f"--LabApp.user_settings_dir={tmp_path / 'settings'}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
        *(["--allow-root"] if os.geteuid() == 0 else []),
    ]
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    log = (tmp_path / "lab.log").open("w")
    # its own process group: memlab lab and the JupyterLab it starts stop together
    server = subprocess.Popen(
        cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                url = f"http://127.0.0.1:{port}/api/contents?token={token}"
                with urllib.request.urlopen(url, timeout=5) as response:
                    listing = json.load(response)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((tmp_path / "lab.log").read_text()) from None
                time.sleep(0.5)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)
        log.close()
    served = sorted(item["name"] for item in listing["content"])
    assert served == sorted(p.name for p in notebook_dir().glob("*.ipynb"))
    assert (work / "notebooks" / "tour.ipynb").is_file()  # the copy, not the shipped folder
