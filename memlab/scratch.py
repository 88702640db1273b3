"""Temporary folders that do not outlive their process.

``scratch_dir(prefix)`` makes a new folder under the system's temp folder and removes
it when the process exits (a notebook's kernel: when it shuts down), so a report
run, a tour or a demo leaves nothing behind. A caller that wants to keep its files
passes a folder of its own instead (``--out``, ``work_dir=``, ``project=``).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path


def scratch_dir(prefix: str) -> Path:
    """A new temporary folder, removed with everything in it when the process exits."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
