"""The package's shape, as issue 31 set it: eval/ in wings that import one way, each
with a face; no module over 400 lines; few functions with ten parameters or more; one
role per module name. (Import cycles and the CLI's isolation: ``test_architecture``.)"""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from pathlib import Path

import pytest

from tests.test_architecture import GRAPH, MODULES

PACKAGE = Path(__file__).resolve().parents[1] / "memlab"
EVAL = PACKAGE / "eval"
# bottom first: a wing may import its own modules and the wings before it
WINGS = ("replay", "measures", "runs", "stats", "compare", "protocols")
LAZY_FACES = ("replay", "runs", "stats", "compare")
MAX_LINES = 400
MAX_WIDE_FUNCTIONS = 8  # functions with >= 10 parameters, numba kernels aside


def wing_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["memlab", "eval"] else None


def test_eval_top_level_is_small() -> None:
    top = [p for p in EVAL.glob("*.py") if p.name != "__init__.py"]
    folders = [p for p in EVAL.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    assert len(top) + len(folders) <= 16
    assert {p.name for p in folders} == set(WINGS)


def test_wings_import_one_way() -> None:
    upward = []
    for module, targets in GRAPH.items():
        wing = wing_of(module)
        if wing is None:
            continue
        for target in targets:
            other = wing_of(target)
            if other is not None and WINGS.index(other) > WINGS.index(wing):
                upward.append(f"{module} -> {target}")
    assert upward == []


@pytest.mark.parametrize("wing", LAZY_FACES)
def test_each_face_names_what_it_loads(wing: str) -> None:
    face = importlib.import_module(f"memlab.eval.{wing}")
    tree = ast.parse((EVAL / wing / "__init__.py").read_text(encoding="utf-8"))
    typed = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.module.startswith("memlab.eval")
        for alias in node.names
    }
    assert typed == set(face.__all__) == set(face._WHERE)
    for name in face.__all__:
        module = importlib.import_module(f"memlab.eval.{wing}.{face._WHERE[name]}")
        assert getattr(face, name) is getattr(module, name)


def test_no_module_is_long() -> None:
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def _is_numba(node: ast.FunctionDef) -> bool:
    return any("njit" in ast.unparse(d) for d in node.decorator_list)


def test_few_functions_take_ten_parameters() -> None:
    wide = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef) or _is_numba(node):
                continue
            a = node.args
            params = [*a.posonlyargs, *a.args, *a.kwonlyargs]
            if params and params[0].arg in ("self", "cls"):
                params = params[1:]
            if len(params) >= 10:
                wide.append(f"{path.relative_to(PACKAGE)}:{node.name} ({len(params)})")
    assert len(wide) <= MAX_WIDE_FUNCTIONS, wide


def test_a_module_name_has_one_role() -> None:
    """A name may repeat only as a face of the same thing: ``cli/<command>.py`` is the
    command of that name, ``workbench/<topic>.py`` what the notebooks show of it."""
    where: dict[str, list[str]] = defaultdict(list)
    for module in MODULES:
        path = MODULES[module]
        if path.name not in ("__init__.py", "__main__.py"):
            where[path.stem].append(module)
    faces = ("memlab.cli.", "memlab.workbench.")
    repeated = {
        name: mods
        for name, mods in where.items()
        if len(mods) > 1 and sum(not m.startswith(faces) for m in mods) > 1
    }
    assert repeated == {}
