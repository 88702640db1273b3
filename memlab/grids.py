"""The grids memlab ships (package data, ``memlab/data/grids/*.yaml``), found by name.

``memlab sweep agent-memory --grid decide`` reads the shipped ``decide.yaml``;
``memlab init DIR`` copies them all to ``DIR/grids/`` to edit. ``grid_file(text)``
is the one reader of ``--grid``: an existing file, else a shipped grid's name.
"""

from __future__ import annotations

from pathlib import Path

from memlab.errors import ConfigError, did_you_mean

GRIDS_DIR = Path(__file__).resolve().parent / "data" / "grids"


def shipped_grids() -> dict[str, Path]:
    """Name → file of every shipped grid."""
    return {p.stem: p for p in sorted(GRIDS_DIR.glob("*.yaml"))}


def grid_file(text: str) -> Path:
    """``--grid``'s file: a path to a grid file, or the name of a shipped grid."""
    path = Path(text).expanduser()
    if path.is_file():
        return path
    shipped = shipped_grids()
    name = path.name.removesuffix(".yaml") if path.parent == Path(".") else ""
    if name in shipped:
        return shipped[name]
    if path.exists():
        raise ConfigError(f"{path} is not a file; give a grid file (YAML) or a shipped grid's name")
    hint = did_you_mean(name or text, list(shipped))
    raise ConfigError(
        f"no grid file {text} and no shipped grid of that name;{hint} shipped grids: "
        f"{', '.join(shipped) or 'none'} (memlab init DIR copies them to DIR/grids)"
    )
