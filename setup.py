"""The wheel carries what the main job needs: the notebooks, the shipped datasets (with
their precomputed vectors) and the committed baselines, copied from the checkout's
top-level folders into ``memlab/shipped/`` (where ``memlab.datasets.locate.shipped_dir``
finds them). An editable install reads them where they are."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED = ("notebooks", "datasets", "baselines")
LEFT_OUT = shutil.ignore_patterns(
    "__pycache__", ".ipynb_checkpoints", "*.sqlite-wal", "*.sqlite-shm", "*.pyc"
)


class BuildWithShipped(build_py):  # type: ignore[misc]
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        here = Path(__file__).resolve().parent
        dest = Path(self.build_lib) / "memlab" / "shipped"
        for name in SHIPPED:
            if (dest / name).exists():
                shutil.rmtree(dest / name)
            shutil.copytree(here / name, dest / name, ignore=LEFT_OUT)


setup(cmdclass={"build_py": BuildWithShipped})
