"""What notebook cells show: figures as PNG, panels of notes and tables, the environment.

Figures are built with ``matplotlib.figure.Figure`` directly (never pyplot), so
they hold no global state and are shown exactly once: ``Plot`` gives Jupyter a
PNG, which nbconvert embeds in the HTML report. ``Panel`` shows a title, a few
lines of text and any number of tables or plots as one cell output.
"""

from __future__ import annotations

import html
import io
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure


def figure(ncols: int = 1, nrows: int = 1, width: float = 8.0, height: float = 4.0) -> Figure:
    """A new figure (not registered with pyplot) with a grid of axes."""
    fig = Figure(figsize=(width, height), layout="constrained")
    fig.subplots(nrows, ncols, squeeze=False)
    return fig


def axes(fig: Figure) -> list[Axes]:
    return list(fig.axes)


class Plot:
    """A matplotlib figure that a notebook shows as a PNG."""

    def __init__(self, fig: Figure, title: str = "") -> None:
        self.figure = fig
        self.title = title

    def png(self, dpi: int = 100) -> bytes:
        buf = io.BytesIO()
        self.figure.savefig(buf, format="png", dpi=dpi)
        return buf.getvalue()

    def _repr_png_(self) -> tuple[bytes, dict[str, str]]:
        # (data, metadata): the alt text reaches nbconvert's HTML
        return self.png(), {"alt": self.title or "figure"}

    def save(self, path: str | Path) -> Path:
        target = Path(path)
        self.figure.savefig(target, dpi=120)
        return target

    def __repr__(self) -> str:
        return f"<Plot {self.title or 'figure'}>"


Item = pd.DataFrame | Plot | str


@dataclass
class Panel:
    """A titled cell output: notes (text lines) followed by tables and plots."""

    title: str = ""
    notes: list[str] = field(default_factory=list)
    items: list[tuple[str, Item]] = field(default_factory=list)

    def add(self, caption: str, item: Item) -> Panel:
        self.items.append((caption, item))
        return self

    def tables(self) -> list[pd.DataFrame]:
        return [item for _, item in self.items if isinstance(item, pd.DataFrame)]

    def _repr_html_(self) -> str:
        parts = [f"<h4>{html.escape(self.title)}</h4>"] if self.title else []
        parts += [f"<p>{html.escape(n)}</p>" for n in self.notes]
        for caption, item in self.items:
            if caption:
                parts.append(f"<p><b>{html.escape(caption)}</b></p>")
            parts.append(_item_html(item))
        return "\n".join(parts)

    def __repr__(self) -> str:
        lines = [self.title] if self.title else []
        lines += self.notes
        for caption, item in self.items:
            lines += [caption, item.to_string() if isinstance(item, pd.DataFrame) else str(item)]
        return "\n".join(lines)


def _item_html(item: Item) -> str:
    if isinstance(item, pd.DataFrame):
        return _shown(item).to_html(index=False, na_rep="-", float_format=lambda v: f"{v:.3f}")
    if isinstance(item, Plot):
        import base64

        data = base64.b64encode(item.png()).decode()
        return f'<img src="data:image/png;base64,{data}" alt="{html.escape(item.title)}"/>'
    return f"<pre>{html.escape(item)}</pre>"


def _shown(df: pd.DataFrame) -> pd.DataFrame:
    """Missing values of nullable columns (``Int64``) as "-", like NaN elsewhere."""
    out = df.copy()
    for col in out.columns:
        if pd.api.types.is_extension_array_dtype(out[col]) and out[col].isna().any():
            out[col] = out[col].astype(object).where(out[col].notna(), "-")
    return out


def setup() -> pd.DataFrame:
    """Set display options for the notebooks; return the environment as a table."""
    import warnings

    from memlab import __version__
    from memlab.store.connection import open_connection

    # tqdm.auto falls back to text bars in a kernel without ipywidgets; say nothing
    warnings.filterwarnings("ignore", message="IProgress not found")
    pd.set_option("display.precision", 3)
    pd.set_option("display.max_colwidth", 80)
    pd.set_option("display.max_rows", 200)
    conn = open_connection(":memory:")
    try:
        versions = conn.versions()
    finally:
        conn.close()
    rows = [("memlab", __version__), ("python", platform.python_version())]
    rows += [(k, str(v) if v else "not available") for k, v in versions.items()]
    return pd.DataFrame(rows, columns=["component", "version"])


def frame(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> pd.DataFrame:
    """A DataFrame from row dictionaries, keeping ``columns`` in order when given."""
    df = pd.DataFrame(list(rows))
    if columns is not None:
        df = df.reindex(columns=list(columns))
    return df
