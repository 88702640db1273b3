"""Temporary folders are removed when their process exits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_scratch_folders_do_not_outlive_their_process() -> None:
    code = (
        "from memlab.scratch import scratch_dir\n"
        "p = scratch_dir('memlab-test-')\n"
        "(p / 'sub').mkdir(); (p / 'sub' / 'f').write_text('x')\n"
        "print(p)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    path = Path(done.stdout.strip())
    assert path.name.startswith("memlab-test-")
    assert not path.exists()
