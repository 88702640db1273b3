"""The report notebooks and their parameters, checked before anything runs.

Every notebook has exactly one cell tagged ``parameters`` holding literals, one
per line, each with a comment (DESIGN: engine ↔ notebook contract). papermill
only *warns* about a parameter the notebook does not declare; memlab rejects it
with a suggestion, and checks each value against the type of its default, so
a typo fails in a second instead of after a long run.

``--param name=value`` applies to every selected notebook that declares
``name``; ``--param notebook.name=value`` to one notebook. A parameters file
(``-f params.yaml``, papermill's format) holds ``name: value`` lines the same way,
and a notebook's name with a mapping under it sets that notebook's parameters;
``--param`` wins over the file. Values are YAML
(``0.5``, ``true``, ``null``, ``[fts, hybrid]``; a comma list for a list
parameter). ``out_dir`` and ``dataset`` are set by the runner (``--out``,
``--datasets``).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from memlab.errors import ReportError, did_you_mean, unknown_name
from memlab.report.shipped_paths import notebook_dir

RUNNER_PARAMS = {"out_dir": "--out", "dataset": "--datasets"}


@dataclass(frozen=True)
class Parameter:
    name: str
    default: Any  # the literal's value
    source: str  # the literal as written
    help: str


@dataclass(frozen=True)
class Notebook:
    name: str  # file stem: "compare", "agent_config"
    path: Path
    parameters: Mapping[str, Parameter]

    @property
    def takes_dataset(self) -> bool:
        return "dataset" in self.parameters


@dataclass(frozen=True)
class Assignment:
    notebook: str | None
    name: str
    value: Any


def canonical(name: str) -> str:
    """``agent-config`` and ``agent_config`` name the same notebook."""
    return name.strip().replace("-", "_")


def available(folder: Path | None = None) -> dict[str, Path]:
    folder = folder or notebook_dir()
    if not folder.is_dir():
        raise ReportError(
            f"notebooks folder {folder} not found; run from a memlab checkout or set "
            "MEMLAB_NOTEBOOKS"
        )
    return {p.stem: p for p in sorted(folder.glob("*.ipynb")) if not p.stem.startswith("_")}


def load_notebooks(names: Iterable[str], folder: Path | None = None) -> list[Notebook]:
    """The named notebooks (``all`` = every one), with their declared parameters."""
    found = available(folder)
    wanted: list[str] = []
    for raw in names:
        name = canonical(raw)
        if name == "all":
            wanted.extend(n for n in found if n not in wanted)
            continue
        if name not in found:
            raise ReportError(unknown_name("notebook", raw, [*found, "all"]))
        if name not in wanted:
            wanted.append(name)
    if not wanted:
        raise ReportError(unknown_name("notebook", "", [*found, "all"]))
    return [Notebook(n, found[n], inspect(found[n])) for n in wanted]


def inspect(path: Path) -> dict[str, Parameter]:
    """The ``parameters`` cell of ``path`` as papermill reads it (``papermill.inspect_notebook``),
    defaults evaluated; stricter than papermill: exactly one such cell, and every name it
    assigns must be one papermill can read."""
    import nbformat
    from papermill import inspect_notebook

    nb = nbformat.read(path, as_version=4)
    tagged = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(tagged) != 1:
        raise ReportError(
            f"notebook {path.stem} has {len(tagged)} cells tagged 'parameters'; "
            "it needs exactly one"
        )
    if not nb.metadata.get("kernelspec", {}).get("name"):
        raise ReportError(
            f"notebook {path.stem} names no kernel (metadata.kernelspec); open it in "
            "JupyterLab (`memlab lab`), choose the memlab kernel and save it"
        )
    inspected = inspect_notebook(str(path))  # what papermill will inject against
    missing = [n for n in assigned_names(tagged[0].source, path) if n not in inspected]
    if missing:
        raise ReportError(
            f"notebook {path.stem}: papermill cannot read parameter(s) {', '.join(missing)}; "
            "write one 'name = literal  # comment' per line, with no '=' in the comment"
        )
    out: dict[str, Parameter] = {}
    for name, info in inspected.items():
        source = str(info["default"])
        try:
            default = ast.literal_eval(source)
        except (ValueError, SyntaxError):
            raise ReportError(
                f"notebook {path.stem}: parameter '{name}' = {source} is not a literal"
            ) from None
        out[name] = Parameter(name, default, source, str(info.get("help") or ""))
    return out


def assigned_names(source: str, path: Path) -> list[str]:
    """Names the parameters cell assigns (read with Python's own parser)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise ReportError(f"notebook {path.stem}: parameters cell: {exc}") from None
    return [
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    ]


def parse_assignments(items: Sequence[str]) -> list[Assignment]:
    """``name=value`` or ``notebook.name=value``; values are YAML."""
    out = []
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ReportError(f"--param expects NAME=VALUE, got '{item}'")
        notebook, _, name = key.rpartition(".")
        try:
            value = yaml.safe_load(text) if text.strip() else ""
        except (yaml.YAMLError, RecursionError) as exc:
            raise ReportError(f"--param {key}: cannot read value {text!r} ({exc})") from None
        check_acyclic(value, f"--param {key}")
        out.append(Assignment(canonical(notebook) if notebook else None, name, value))
    return out


def check_acyclic(value: Any, where: str) -> None:
    """A YAML alias may make a value contain itself (``&a [*a]``): no notebook can take
    it (papermill writes parameters as JSON), so it is refused here in one line."""
    try:
        json.dumps(value, default=str)
    except (ValueError, RecursionError):
        raise ReportError(
            f"{where}: the value contains itself (a YAML alias such as &a [*a]); "
            "write the value out in full"
        ) from None


def file_assignments(path: Path, notebooks: Iterable[str]) -> list[Assignment]:
    """A papermill parameters file as assignments: ``name: value`` for every notebook
    that declares ``name``, ``notebook: {name: value}`` for one notebook."""
    from memlab.datafile import load_data

    data = load_data(path, what="parameters file", error=ReportError)
    if data is None:
        return []
    if not isinstance(data, dict):
        raise ReportError(f"parameters file {path}: expected 'name: value' lines (a mapping)")
    names = {canonical(n) for n in notebooks}
    out = []
    for key, value in data.items():
        key = str(key)
        check_acyclic(value, f"parameters file {path}: {key}")
        if canonical(key) in names and isinstance(value, dict):
            out += [Assignment(canonical(key), str(k), v) for k, v in value.items()]
        else:
            out.append(Assignment(None, key, value))
    return out


def bind(notebooks: Sequence[Notebook], assignments: Sequence[Assignment]) -> dict[str, dict]:
    """Parameters per notebook; an unknown name or a value of the wrong type is an error."""
    bound: dict[str, dict[str, Any]] = {nb.name: {} for nb in notebooks}
    by_name = {nb.name: nb for nb in notebooks}
    for a in assignments:
        if a.name in RUNNER_PARAMS:
            raise ReportError(
                f"parameter '{a.name}' is set by the runner; use {RUNNER_PARAMS[a.name]}"
            )
        if a.notebook is not None and a.notebook not in by_name:
            raise ReportError(
                f"--param {a.notebook}.{a.name}: notebook '{a.notebook}' is not selected;"
                f"{did_you_mean(a.notebook, by_name)} selected: {', '.join(by_name)}"
            )
        targets = [by_name[a.notebook]] if a.notebook else list(notebooks)
        takers = [nb for nb in targets if a.name in nb.parameters]
        if not takers:
            raise ReportError(_unknown_message(a.name, targets))
        for nb in takers:
            bound[nb.name][a.name] = coerce(nb, nb.parameters[a.name], a.value)
    return bound


def _unknown_message(name: str, targets: Sequence[Notebook]) -> str:
    valid = sorted({p for nb in targets for p in nb.parameters if p not in RUNNER_PARAMS})
    which = ", ".join(nb.name for nb in targets)
    plural = "s" if len(targets) > 1 else ""
    return (
        f"unknown parameter '{name}' for notebook{plural} {which};{did_you_mean(name, valid)}"
        f" valid: {', '.join(valid)}"
    )


def coerce(nb: Notebook, param: Parameter, value: Any) -> Any:
    """``value`` checked against the type of the parameter's default."""
    default = param.default
    if default is None or value is None:
        return value
    ok: Any = _NO
    if isinstance(default, bool):
        ok = value if isinstance(value, bool) else _NO
    elif isinstance(default, int):
        ok = value if isinstance(value, int) and not isinstance(value, bool) else _NO
    elif isinstance(default, float):
        ok = (
            float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else _NO
        )
    elif isinstance(default, str):
        ok = (
            str(value)
            if isinstance(value, (str, int, float)) and not isinstance(value, bool)
            else _NO
        )
    elif isinstance(default, (list, tuple)):
        ok = _as_list(value)
    elif isinstance(default, dict):
        ok = value if isinstance(value, dict) else _NO
    if ok is _NO:
        raise ReportError(
            f"parameter '{param.name}' of notebook {nb.name} expects "
            f"{type(default).__name__} (default {param.source}), got {value!r}"
        )
    return ok


_NO = object()


def _as_list(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, (int, float)):
        return [value]
    return _NO
