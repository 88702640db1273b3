"""A folder of the user's with what the main job needs: ``memlab init DIR``.

``lay_out(DIR)`` copies what memlab ships into ``DIR``::

    DIR/notebooks/              the report notebooks (edit and run them here)
    DIR/datasets/agent-memory/  the shipped dataset, with its precomputed vectors
    DIR/baselines/regression.json
    DIR/grids/                  the shipped sweep grids (``--grid DIR/grids/decide.yaml``)

so a pip install can run, change and keep its own notebooks, dataset and baseline
(``memlab report --notebook-dir DIR/notebooks --baseline DIR/baselines/regression.json``,
``memlab compare DIR/datasets/agent-memory``). An existing file is never
overwritten unless ``force``; the copies are the user's.

``working_copy(DIR)`` is what ``memlab lab`` opens: ``DIR`` laid out on first use,
never the notebooks memlab ships (a checkout's tracked files stay untouched).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from memlab.datasets.locate import DEFAULT_DATASET, shipped_dir
from memlab.errors import ReportError
from memlab.grids import shipped_grids


@dataclass
class LaidOut:
    dest: Path
    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # already there, left as they were


def sources() -> dict[str, Path]:
    """What ``lay_out`` copies: target (relative to DIR) → shipped source."""
    notebooks = shipped_dir("notebooks")
    dataset = shipped_dir("datasets") / DEFAULT_DATASET
    baseline = shipped_dir("baselines") / "regression.json"
    out = {f"notebooks/{p.name}": p for p in sorted(notebooks.glob("*.ipynb"))}
    out[f"datasets/{DEFAULT_DATASET}"] = dataset
    out["baselines/regression.json"] = baseline
    out.update({f"grids/{p.name}": p for p in shipped_grids().values()})
    missing = [str(p) for p in out.values() if not p.exists()]
    if missing or not notebooks.is_dir():
        raise ReportError(
            f"this memlab install lacks what it should ship ({', '.join(missing) or notebooks}); "
            "reinstall it"
        )
    return out


def lay_out(dest: Path, *, force: bool = False) -> LaidOut:
    """Copy the notebooks, the shipped dataset (with vectors) and the baseline into
    ``dest``; files already there are kept unless ``force``."""
    if dest.exists() and not dest.is_dir():
        raise ReportError(f"{dest} exists and is not a folder; choose another DIR")
    done = LaidOut(dest)
    for rel, src in sources().items():
        target = dest / rel
        if target.exists() and not force:
            done.kept.append(target)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(src, target)
        else:
            shutil.copyfile(src, target)
        done.written.append(target)
    return done


def working_copy(dest: Path) -> tuple[Path, LaidOut | None]:
    """The notebooks folder ``memlab lab`` opens: ``dest/notebooks``, laid out the first
    time (None when it was already there)."""
    folder = dest / "notebooks"
    if folder.is_dir() and any(folder.glob("*.ipynb")):
        return folder, None
    return folder, lay_out(dest)
