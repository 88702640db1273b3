"""The CLI starts light: the parser and a search import nothing heavy.

``memlab --help`` and ``memlab search`` run in a fresh interpreter; afterwards none
of pandas, scipy, matplotlib, ranx or numba has been imported (they cost seconds
to import, and neither command needs them). A command line that names a command
imports that command's module only (``memlab --help`` none: the summaries come from
``memlab.cli.commands``): ``memlab eval`` loads no other command's
module and nothing heavy — not even pandas: it prints from plain records, and its
pandas tables are built when a notebook reads them (``memlab compare`` and ``--out``
load pandas). Speed itself is
measured by ``benchmarks/bench_cli.py`` and ``benchmarks/bench_beir.py``, not here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from memlab.cli import COMMAND_MODULES, COMMANDS
from memlab.cli.args import MemlabParser
from tests.conftest import T0, WS, write
from tests.eval.conftest import write_eval_dataset

HEAVY = ("pandas", "scipy", "matplotlib", "ranx", "numba", "torch", "sentence_transformers")
ON_DEMAND = ("memlab.dream", "multiprocessing")  # imported by the work that needs them
PROBE = (
    "import json, sys\n"
    "from memlab.cli import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "except SystemExit as exc:\n"
    "    code = exc.code\n"
    f"heavy = {{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})\n"
    "commands = [m for m in sys.modules if m.startswith('memlab.cli.')]\n"
    f"lazy = [m for m in sys.modules if m.startswith({ON_DEMAND!r})]\n"
    "print(json.dumps([sorted(heavy), sorted(commands), code, lazy]), file=sys.stderr)\n"
)


def probe(*argv: str) -> list[Any]:
    """[heavy modules, ``memlab.cli.*`` modules, exit code, ``ON_DEMAND`` modules] of
    ``memlab ARGV``."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=300
    )
    found: list[Any] = json.loads(out.stderr.strip().splitlines()[-1])
    return found


def loaded_modules(*argv: str) -> tuple[list[str], list[str], int | None]:
    """(heavy modules, ``memlab.cli.*`` modules, exit code) of ``memlab ARGV``."""
    heavy, commands, code, _ = probe(*argv)
    return heavy, commands, code


def heavy_modules(*argv: str) -> list[str]:
    return loaded_modules(*argv)[0]


def test_help_imports_nothing_heavy() -> None:
    assert heavy_modules("--help") == []
    assert heavy_modules("search", "--help") == []


def test_engine_help_loads_no_store_or_search() -> None:
    """Parsing ``index``/``search``/``demo`` (their ``--help``) imports the command module
    only: the store, the search pipeline and numpy load when a command runs."""
    code = (
        "import sys\n"
        "from memlab.cli import main\n"
        "code = main(['search', '--help'])\n"
        "later = ('numpy', 'memlab.store.store', 'memlab.retrieval.pipeline', "
        "'memlab.retrieval.explain')\n"
        "print(code, sorted(set(later) & set(sys.modules)), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stderr.strip().splitlines()[-1] == "0 []"


def test_a_search_imports_nothing_heavy(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    write(root, f"{WS}/MEMORY.md", "# Project\n\nCI runs on Node 22.\n")
    write(root, f"{WS}/sessions/2026-01-02-ci-00000001.md", "# CI\n\nMoved CI to Node 22.\n")
    now = str(T0)
    assert heavy_modules("index", str(root), "--workspace", WS, "--now", now) == []
    assert heavy_modules("search", str(root), "node version", "--now", now, "--json") == []


def test_the_probe_sees_heavy_imports() -> None:
    """Guards the tests above against a probe that cannot see anything."""
    # the simulator's compiled engine needs numba (its summary no longer needs pandas)
    assert "numba" in heavy_modules("dream", "simulate", "--users", "3", "--days", "1", "--json")


def test_dream_simulate_starts_numba_without_scipy_linalg() -> None:
    """numba's start asks for scipy.linalg only to pick BLAS for ``np.correlate``; the
    simulator hides it then (``memlab.jit.start_without_scipy``), and numba's ``np.dot``
    still imports it when compiled later in the same process."""
    code = (
        "import sys\n"
        "from memlab.cli import main\n"
        "code = main(['dream', 'simulate', '--users', '3', '--days', '1', '--json'])\n"
        "hidden = 'scipy.linalg' not in sys.modules\n"
        "import numpy as np\n"
        "from memlab.jit import numba\n"
        "dot = numba().njit(lambda a, b: np.dot(a, b))\n"
        "print(code, hidden, dot(np.ones(3), np.ones(3)), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stderr.strip().splitlines()[-1] == "0 True 3.0"


def test_each_command_is_mapped_to_the_module_that_registers_it() -> None:
    registered = {}
    for name in COMMAND_MODULES:
        sub = MemlabParser(prog="memlab").add_subparsers()
        __import__(name, fromlist=["register"]).register(sub)
        registered.update(dict.fromkeys(sub.choices, name))
    assert registered == {name: command.module for name, command in COMMANDS.items()}


def test_help_lists_every_command_from_the_table_alone() -> None:
    """``memlab --help`` is built from ``memlab.cli.commands`` without importing a command
    module, and prints what the parser of every command prints, in the same order."""
    from memlab.cli import build_parser

    assert build_parser(["--help"]).format_help() == build_parser().format_help()
    heavy, commands, code = loaded_modules("--help")
    assert code == 0 and heavy == []
    assert not set(COMMAND_MODULES) & set(commands)  # no command module imported
    _, commands, code = loaded_modules("bogus-command")
    assert code == 2 and not set(COMMAND_MODULES) & set(commands)


def test_eval_imports_its_own_command_module_only(tmp_path: Path) -> None:
    dataset = write_eval_dataset(tmp_path / "ds")
    work = str(tmp_path / "work")
    heavy, commands, code = loaded_modules("eval", str(dataset), "--quiet", "--work", work)
    assert code == 0
    assert heavy == []  # no pandas (printed from records), scipy, matplotlib, ranx, numba
    others = {m for m in COMMAND_MODULES if m != "memlab.cli.evaluate"}
    assert "memlab.cli.evaluate" in commands and not others & set(commands)


def test_eval_without_dream_imports_no_dream_module_and_no_process_pool(tmp_path: Path) -> None:
    """``memlab.dream`` is imported by a replay that runs Dream, ``multiprocessing`` by a
    process pool; an eval in this process without Dream needs neither."""
    dataset = write_eval_dataset(tmp_path / "ds")
    work = str(tmp_path / "work")
    argv = ("eval", str(dataset), "--quiet", "--work", work)
    heavy, _, code, lazy = probe(*argv, "--dream", "off", "--set", "vectors=false")
    assert code == 0 and lazy == [] and heavy == []  # an FTS-only eval: no pandas either
    heavy, _, code, _ = probe(*argv, "--dream", "off", "--out", str(tmp_path / "out"))
    assert code == 0 and heavy == ["pandas"]  # the probe sees pandas when --out writes CSVs
    _, _, code, lazy = probe(*argv, "--dream", "on")
    assert code == 0 and "memlab.dream.run" in lazy  # the probe sees them when they load


def test_eval_gives_the_garbage_collector_back_as_it_found_it(tmp_path: Path) -> None:
    """``memlab eval`` collects less often while it runs (``fewer_collections``); a
    process that calls it (a notebook, this test) keeps its own GC settings."""
    import gc

    from memlab.cli import main
    from memlab.cli.evaluate import fewer_collections

    dataset = write_eval_dataset(tmp_path / "ds")
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with fewer_collections(gen0=before[0] + 1):
        assert gc.get_threshold()[0] == before[0] + 1 and gc.get_freeze_count() > frozen
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
    assert main(["eval", str(dataset), "--quiet", "--work", str(tmp_path / "work")]) == 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen


def test_a_protocol_evaluation_of_one_run_loads_no_pandas(tmp_path: Path) -> None:
    """``--protocol beir`` (one run, one category) prints its means and its JSON from
    plain records; the numbers are those of the pandas table a notebook reads."""
    from memlab.datasets.importers import import_dataset
    from memlab.eval.protocols import get_protocol, prepare_protocol, run_protocol
    from memlab.eval.runs.rankers import as_run
    from tests.datasets.conftest import FIXTURES

    dest = tmp_path / "beir"
    import_dataset("beir", FIXTURES / "beir_mini", dest)
    argv = ["eval", str(dest), "--protocol", "beir", "--quiet", "--work", str(tmp_path / "w")]
    for extra in ([], ["--json"]):
        heavy, _, code, _ = probe(*argv, *extra)
        assert code == 0 and "pandas" not in heavy, heavy
    rows = main_json(*argv, "--json")
    protocol = get_protocol("beir")
    prepared = prepare_protocol(dest, protocol, profile_name="standard-ir", work_dir=tmp_path)
    from memlab.config import profile

    runs = {"config": as_run(replace(profile("standard-ir").search, vectors=False))}
    result = run_protocol(prepared, runs, protocol)
    table = result.table()
    for row in rows:
        if row["measure"] in table.columns:
            assert row["value"] == pytest.approx(table.loc[row["run"], row["measure"]], abs=1e-12)
    assert {r["measure"] for r in rows} >= {"nDCG@10", "R@100", "NumQ"}
    assert result.means()[0]["nDCG@10"] == table.loc["config", "nDCG@10"]


def main_json(*argv: str) -> Any:
    out = subprocess.run(
        [sys.executable, "-m", "memlab", *argv], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)
