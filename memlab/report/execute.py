"""Run one notebook with papermill in the real ``memlab`` kernel, and say where it failed.

The kernel is named explicitly, with a start timeout and a per-cell timeout.
The ``memlab`` kernel is installed on first use (``check_kernel``: this Python's
``ipykernel``, into the virtualenv it runs in, else the user's Jupyter folder), so a
``pip install memlab`` needs no setup step; ``make setup`` installs it up front.

papermill writes the executed notebook even when a cell fails; the failure is then
located in that notebook — the cell's number in the *source* notebook (papermill's
injected-parameters and error-marker cells are not counted), its execution count,
the Markdown section it sits in and its first line — so the message names the
notebook and the cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.errors import ReportError

DEFAULT_KERNEL = "memlab"
_ADDED_TAGS = {"injected-parameters", "papermill-error-cell-tag"}
# ipykernel warns at every start that a local kernel talks over TCP without encryption
# (jupyter_client's default for every kernel it launches); the kernel's own log lines
# are not the report's business, its errors still show.
KERNEL_ARGUMENTS = ("--IPKernelApp.log_level=ERROR",)


@dataclass(frozen=True)
class Failure:
    """Where and how a notebook failed."""

    cell: int | None  # 1-based number of the cell in the source notebook
    cells: int  # cells in the source notebook
    exec_count: int | None
    section: str
    source: str  # first line of the failing cell
    error: str  # "KeyError: 'x'" or the runner's own message

    def describe(self, notebook: str) -> str:
        if self.cell is None:
            return f"notebook {notebook} failed: {self.error}"
        where = f"cell {self.cell} of {self.cells}"
        if self.exec_count is not None:
            where += f" (In [{self.exec_count}])"
        if self.section:
            where += f", section '{self.section}'"
        code = f" `{self.source}`" if self.source else ""
        return f"notebook {notebook} failed in {where}:{code} — {self.error}"


def check_kernel(name: str, echo: Callable[[str], None] = print) -> None:
    """Make sure kernel ``name`` exists: the ``memlab`` kernel is installed when missing
    (one line says where); any other missing kernel is a ReportError saying what to do."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec(name)
    except NoSuchKernel:
        if name != DEFAULT_KERNEL:
            raise ReportError(
                f"Jupyter kernel '{name}' is not installed; install it (`python -m "
                f"ipykernel install --sys-prefix --name {name}`) or pass --kernel memlab"
            ) from None
        echo(f"installed the Jupyter kernel '{name}' (this Python) in {install_kernel(name)}")


def install_kernel(name: str = DEFAULT_KERNEL, prefix: Path | None = None) -> Path:
    """Install a kernel ``name`` running this Python: under ``prefix``, else the
    virtualenv this Python runs in, else the user's Jupyter folder. Its folder."""
    import sys

    from ipykernel.kernelspec import install

    if prefix is None and sys.prefix != sys.base_prefix:
        prefix = Path(sys.prefix)
    try:
        where = install(
            kernel_name=name,
            display_name=name,
            prefix=str(prefix) if prefix is not None else None,
            user=prefix is None,
        )
    except OSError as exc:
        raise ReportError(
            f"could not install the Jupyter kernel '{name}' ({exc}); run "
            f"`python -m ipykernel install --user --name {name}`"
        ) from None
    return Path(where)


CellHook = Callable[[int, int, str], None]  # (cells done, cells, the running cell's first line)
ENGINE = "memlab"  # papermill's nbclient engine, telling ``on_cell`` as cells start and end


def run_notebook(
    source: Path,
    output: Path,
    parameters: Mapping[str, Any],
    *,
    kernel: str = DEFAULT_KERNEL,
    start_timeout: float = 120.0,
    cell_timeout: float = 900.0,
    progress: bool = True,
    cwd: Path | None = None,
    on_cell: CellHook | None = None,
) -> Failure | None:
    """Execute ``source`` into ``output``; None on success, else where it failed.

    ``on_cell`` is told as each cell starts and ends (cells counted as papermill runs
    them: its parameters cell included); it replaces papermill's own bar."""
    import papermill

    output.parent.mkdir(parents=True, exist_ok=True)
    engine: dict[str, Any] = {}
    if on_cell is not None:
        _register_engine()
        engine = {"engine_name": ENGINE, "on_cell": on_cell}
    try:
        papermill.execute_notebook(
            str(source),
            str(output),
            parameters=dict(parameters),
            kernel_name=kernel,
            start_timeout=int(start_timeout),
            execution_timeout=int(cell_timeout),
            progress_bar=progress and on_cell is None,
            log_output=False,
            cwd=str(cwd) if cwd else None,
            extra_arguments=list(KERNEL_ARGUMENTS),
            **engine,
        )
    except papermill.PapermillExecutionError as exc:
        return locate_failure(output, f"{exc.ename}: {exc.evalue}")
    except Exception as exc:  # kernel died, did not start, a cell timed out, …
        text = str(exc).strip().splitlines()
        detail = f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
        if output.is_file():
            return locate_failure(output, detail)
        return Failure(None, 0, None, "", "", detail)
    return None


def _register_engine() -> None:
    """papermill's nbclient engine, calling ``on_cell`` at each cell's start and end."""
    from papermill.engines import NBClientEngine, papermill_engines

    if ENGINE in papermill_engines._engines:
        return

    class CellsEngine(NBClientEngine):
        @classmethod
        def execute_managed_notebook(cls, nb_man: Any, kernel_name: str, **kwargs: Any) -> Any:
            hook: CellHook = kwargs.pop("on_cell")
            cells = len(nb_man.nb.cells)
            done = 0
            started, completed = nb_man.cell_start, nb_man.cell_complete

            def cell_start(cell: Any, cell_index: int | None = None, **kw: Any) -> Any:
                out = started(cell, cell_index, **kw)
                hook(done, cells, _first_line(cell))
                return out

            def cell_complete(cell: Any, cell_index: int | None = None, **kw: Any) -> Any:
                nonlocal done
                out = completed(cell, cell_index, **kw)
                done += 1
                hook(done, cells, "")
                return out

            nb_man.cell_start, nb_man.cell_complete = cell_start, cell_complete
            hook(0, cells, "")
            return super().execute_managed_notebook(nb_man, kernel_name, **kwargs)

    papermill_engines.register(ENGINE, CellsEngine)


def _first_line(cell: Any) -> str:
    if cell.get("cell_type") != "code":
        return ""
    return next((ln.strip() for ln in str(cell.source).splitlines() if ln.strip()), "")


def locate_failure(output: Path, error: str) -> Failure:
    """Find the failed (or still running) cell of an executed notebook."""
    import nbformat

    nb = nbformat.read(output, as_version=4)
    cells = [c for c in nb.cells if not _ADDED_TAGS & set(c.get("metadata", {}).get("tags", []))]
    section = ""
    for number, cell in enumerate(cells, start=1):
        if cell.cell_type == "markdown":
            section = _heading(cell.source) or section
            continue
        status = cell.get("metadata", {}).get("papermill", {})
        errored = any(o.get("output_type") == "error" for o in cell.get("outputs", []))
        if errored or status.get("exception") or status.get("status") == "running":
            first = next((ln.strip() for ln in cell.source.splitlines() if ln.strip()), "")
            return Failure(number, len(cells), cell.get("execution_count"), section, first, error)
    return Failure(None, len(cells), None, "", "", error)


def _heading(markdown: str) -> str:
    for line in markdown.splitlines():
        if line.lstrip().startswith("#"):
            return line.lstrip("# ").strip()
    return ""
