"""The engine ↔ notebook contract, checked on the committed notebooks (no kernel).

* exactly one cell tagged ``parameters``: one ``name = literal  # comment`` per
  line, every name readable by papermill, every value a literal;
* no logic in the notebooks: code cells import ``memlab.workbench as wb`` and
  call its functions — no loops, branches, definitions or comprehensions, at
  most two statements, every call a ``wb.*`` function that exists;
* the ``memlab`` kernel, no committed outputs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest

import memlab.workbench as wb
from memlab.report.notebooks import available, inspect
from memlab.report.shipped_paths import notebook_dir

NOTEBOOKS = sorted(available())
EXPECTED = {
    "tour",
    "tour_zh",  # generated: memlab.report.editions
    "compare",
    "sweep",
    "dream_capacity",
    "agent_config",
    "regression",
    "judge",
}
FORBIDDEN = (
    ast.For,
    ast.While,
    ast.If,
    ast.With,
    ast.Try,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.DictComp,
    ast.SetComp,
    ast.GeneratorExp,
)


def cells(name: str) -> list[nbformat.NotebookNode]:
    nb = nbformat.read(notebook_dir() / f"{name}.ipynb", as_version=4)
    nbformat.validate(nb)
    return list(nb.cells)


def test_every_notebook_of_the_issue_is_there() -> None:
    assert set(NOTEBOOKS) == EXPECTED


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_one_parameters_cell_of_commented_literals(name: str) -> None:
    tagged = [c for c in cells(name) if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1
    lines = [ln for ln in tagged[0].source.splitlines() if ln.strip()]
    for line in lines:
        code, sep, comment = line.partition("  # ")
        assert sep and comment.strip(), f"{name}: parameter without a comment: {line}"
        node = ast.parse(code).body[0]
        assert isinstance(node, ast.Assign), line
        ast.literal_eval(node.value)  # literals only
    params = inspect(notebook_dir() / f"{name}.ipynb")
    assert len(params) == len(lines)
    assert all(p.help for p in params.values())


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_cells_only_call_the_workbench(name: str) -> None:
    code = [c for c in cells(name) if c.cell_type == "code"]
    for cell in code:
        if "parameters" in cell.metadata.get("tags", []):
            continue
        tree = ast.parse(cell.source)
        assert len(tree.body) <= 2, f"{name}: too much in one cell:\n{cell.source}"
        for node in ast.walk(tree):
            assert not isinstance(node, FORBIDDEN), f"{name}: logic in a cell:\n{cell.source}"
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [(a.name, a.asname) for a in node.names]
                assert names == [("memlab.workbench", "wb")], cell.source
            if isinstance(node, ast.Call):
                func = node.func
                assert isinstance(func, ast.Attribute), cell.source
                assert isinstance(func.value, ast.Name) and func.value.id == "wb", cell.source
                assert func.attr in wb.__all__, f"{name}: wb.{func.attr} is not exported"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_memlab_kernel_and_no_outputs(name: str) -> None:
    nb = nbformat.read(notebook_dir() / f"{name}.ipynb", as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "memlab"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_teaching_text(name: str) -> None:
    markdown = [c for c in cells(name) if c.cell_type == "markdown"]
    assert markdown[0].source.startswith("# ")
    assert len(markdown) >= 4


def test_tour_covers_the_issue() -> None:
    text = "\n".join(c.source for c in cells("tour"))
    for needed in (
        "wb.edit_memory",
        "wb.live_search",
        "wb.remove_memory",
        "wb.degradation",
        "wb.mmr_side_by_side",
        "wb.trace",
        "exactly 0",
        "10.6",
        "supplement",
    ):
        assert needed in text, needed


def test_workbench_exports_exist() -> None:
    for name in wb.__all__:
        assert hasattr(wb, name), name
    assert Path(notebook_dir()).is_dir()
