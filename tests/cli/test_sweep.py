"""``memlab sweep``: grid file in, results folder out, resumable, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from memlab.cli import main

GRID = """\
half_life_days: [1, 30, null]
source_weights.session: [0.5, 1.0]
mmr: {enabled: [true], lambda: [0.5, 1.0]}
strategy: [grok, rrf]
min_score: 0.0
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def grid_file(tmp_path: Path) -> Path:
    path = tmp_path / "grid.yaml"
    path.write_text(GRID)
    return path


def test_sweep_writes_one_row_per_configuration_and_resumes(
    evalmini_path: Path, grid_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = [str(evalmini_path), "--grid", str(grid_file), "--out", str(out)]
    args += ["--embedder", "hash", "--holdout", "0.4", "--quiet", "--work", str(tmp_path / "w")]
    code, text, _ = run(capsys, "sweep", *args)
    assert code == 0
    assert "24 configurations (24 scored, 0 resumed)" in text and "holdout" in text
    table = pd.read_csv(out / "sweep.csv")
    assert len(table) == 24 and table["config_hash"].is_unique
    assert {"half_life_days", "mmr.lambda", "nDCG@10:dev", "nDCG@10:holdout"} <= set(table)
    assert len(pd.read_csv(out / "best.csv")) == 5
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["embedder"]["id"] == "hash-384" and manifest["split"]["holdout"] == 0.4
    code, text, _ = run(capsys, "sweep", *args, "--json")
    assert code == 0
    summary = json.loads(text)
    assert (summary["evaluated"], summary["resumed"]) == (0, 24)
    # every point lowers min_score to 0 and so returns more tokens than the base: kept
    assert summary["decision"]["chosen"]["keeps_base"]
    code, text, _ = run(capsys, "sweep", *args, "--json", "--objective", "quality")
    assert json.loads(text)["chosen"]["config_hash"] in set(table["config_hash"])


def test_random_search(
    evalmini_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    space = tmp_path / "space.yaml"
    space.write_text("half_life_days: {loguniform: [1, 90]}\nmmr.lambda: {uniform: [0, 1]}\n")
    code, text, _ = run(
        capsys,
        "sweep",
        str(evalmini_path),
        "--grid",
        str(space),
        "--random",
        "7",
        "--seed",
        "3",
        "--embedder",
        "hash",
        "--measure",
        "RR",
        "--holdout",
        "0",
        "--quiet",
        "--work",
        str(tmp_path / "w"),
    )
    assert code == 0 and "7 configurations" in text and "best by RR on all queries" in text
    assert "rule: the best RR on all queries" in text


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ("mmr.lamda: [0.5]\n", "did you mean 'lambda'?"),
        ("half_life: [7]\n", "did you mean 'half_life_days'?"),
        ("source_weights.sesion: [1.0]\n", "did you mean 'session'?"),
        ("vector_weight: {uniform: [0, 1]}\n", "random search"),
    ],
)
def test_bad_grid_files_are_one_line_errors(
    evalmini_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    grid: str,
    message: str,
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(grid)
    argv = ["sweep", str(evalmini_path), "--grid", str(path), "--embedder", "hash", "--quiet"]
    code, _, err = run(capsys, *argv, "--work", str(tmp_path / "w"))
    assert code == 2
    assert err.startswith("memlab: error:") and message in err and err.count("\n") == 1


def test_ctrl_c_saves_and_says_how_to_resume(
    evalmini_path: Path,
    grid_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.sweep.test_runner import interrupt_on_chunk

    interrupt_on_chunk(monkeypatch, 2)
    out = tmp_path / "out"
    argv = ["sweep", str(evalmini_path), "--grid", str(grid_file), "--out", str(out)]
    code, text, _ = run(capsys, *argv, "--embedder", "hash", "--quiet")
    assert code == 130
    done = len(pd.read_csv(out / "sweep.csv"))
    assert 0 < done < 24
    message = f"interrupted after {done} of 24 configurations; rerun the same command to resume"
    assert message in text


def sweep_args(evalmini_path: Path, grid: Path | str, tmp_path: Path, *extra: str) -> list[str]:
    return [
        "sweep",
        str(evalmini_path),
        "--grid",
        str(grid),
        "--embedder",
        "hash",
        "--holdout",
        "0.4",
        "--quiet",
        "--work",
        str(tmp_path / "w"),
        *extra,
    ]


def test_the_output_states_the_rule_the_fronts_and_base_beside_chosen(
    evalmini_path: Path, grid_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text, _ = run(capsys, *sweep_args(evalmini_path, grid_file, tmp_path, "--splits", "2"))
    assert code == 0
    assert "rule: the best nDCG@10 on dev among the configurations with" in text
    assert "base vs chosen" in text and "Pareto front: nDCG@10 against Tokens (dev)" in text
    assert "chosen again on 2 other splits" in text and "warning: the holdout has" in text
    code, free, _ = run(
        capsys, *sweep_args(evalmini_path, grid_file, tmp_path, "--objective", "quality")
    )
    assert code == 0 and "rule: the best nDCG@10 on dev, whatever it costs (unconstrained)" in free
    code, out, _ = run(capsys, *sweep_args(evalmini_path, grid_file, tmp_path, "--json"))
    decision = json.loads(out)["decision"]
    assert decision["objective"] == "constrained" and decision["caps"]["Tokens"] > 0
    assert {"gain", "optimism", "warnings", "side_by_side"} <= set(decision)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--objective", "constrainted"], "did you mean 'constrained'?"),
        (["--objective", "nDCG@10 - 0.1*Tokns"], "unknown measure 'Tokns'"),
        (["--max-tokens", "-1"], "--max-tokens"),
        (["--cost-tolerance", "nan"], "--cost-tolerance"),
    ],
)
def test_a_bad_rule_is_a_one_line_error_before_the_sweep(
    evalmini_path: Path,
    grid_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    code, _, err = run(capsys, *sweep_args(evalmini_path, grid_file, tmp_path, *extra))
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "w").exists()  # nothing replayed


def test_shipped_grids_are_found_by_name(
    evalmini_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text, _ = run(capsys, *sweep_args(evalmini_path, "decide", tmp_path, "--splits", "0"))
    assert code == 0 and text.startswith("120 configurations (120 scored")
    code, _, err = run(capsys, *sweep_args(evalmini_path, "decid", tmp_path))
    assert code == 2 and "did you mean 'decide'?" in err and "shipped grids: broad, decide" in err


def test_export_writes_the_settings_and_compare_reproduces_the_numbers(
    evalmini_path: Path, grid_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "chosen"
    argv = sweep_args(evalmini_path, grid_file, tmp_path, "--export", str(dest), "--splits", "0")
    code, text, _ = run(capsys, *argv, "--out", str(tmp_path / "sweep"), "--objective", "quality")
    assert code == 0
    names = {"chosen.yaml", "grok-settings.toml", "openclaw.json", "mapping.md", "decision.md"}
    extra = {"split.json", "fronts.png", "fronts.csv"}
    assert names | extra == {p.name for p in dest.iterdir()}
    assert (
        "![nDCG@10 against its costs, the Pareto fronts](fronts.png)"
        in (dest / "decision.md").read_text()
    )
    fronts = pd.read_csv(dest / "fronts.csv")
    assert set(fronts["cost"]) <= {"AbstainHits", "Tokens"} and "chosen" in set(fronts["mark"])
    assert {"decision.json", "fronts.png", "fronts.csv"} <= {
        p.name for p in (tmp_path / "sweep").iterdir()
    }
    assert f"wrote {dest / 'chosen.yaml'}" in text and "not in the OpenClaw settings" in text
    decision = json.loads((tmp_path / "sweep" / "decision.json").read_text())
    chosen = decision["chosen"]["config_hash"]
    row = pd.read_csv(tmp_path / "sweep" / "sweep.csv").set_index("config_hash").loc[chosen]
    runs = f"fts,hybrid,chosen={dest / 'chosen.yaml'}"
    cmp = tmp_path / "cmp"
    argv = ["compare", str(evalmini_path), "--runs", runs, "--embedder", "hash", "--quiet"]
    argv.append("--end-to-end-only")
    code, _, _ = run(capsys, *argv, "--work", str(tmp_path / "w"), "--out", str(cmp))
    assert code == 0
    perquery = pd.read_csv(cmp / "perquery.csv")
    mine = perquery[(perquery["run"] == "chosen") & (perquery["measure"] == "nDCG@10")]
    holdout = json.loads((dest / "split.json").read_text())["holdout"]
    held = mine[mine["query_id"].isin(holdout)]["value"].mean()
    assert held == pytest.approx(row["nDCG@10:holdout"], abs=1e-12)
    assert mine["value"].mean() == pytest.approx(row["nDCG@10"], abs=1e-12)
    assert "## Reproduce" in (dest / "decision.md").read_text()


def test_config_export_writes_any_configuration(
    evalmini_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memlab.agents._toml import loads
    from memlab.eval.runs.rankers import parse_run_specs

    dest = tmp_path / "exported"
    argv = ["config", "export", "--set", "half_life_days=30", "--tokenizer", "porter"]
    code, text, _ = run(capsys, *argv, "--set", "mmr.enabled=true", "--out", str(dest))
    assert code == 0 and "not in the Grok settings" in text
    assert {p.name for p in dest.iterdir()} == {
        "config.yaml",
        "grok-settings.toml",
        "openclaw.json",
        "mapping.md",
    }
    run_ = parse_run_specs(f"mine={dest / 'config.yaml'}")["mine"]
    assert run_.config.half_life_days == 30 and run_.config.mmr.enabled
    assert dict(run_.index) == {"tokenizer": "porter"}
    assert loads((dest / "grok-settings.toml").read_text())["half_life_days"] == 30
    block = json.loads((dest / "openclaw.json").read_text())["agents"]["defaults"]
    assert block["memorySearch"]["query"]["hybrid"]["temporalDecay"]["halfLifeDays"] == 30
    # the --config file's index section reaches the index, as --tokenizer would
    eval_args = ["eval", str(evalmini_path), "--config", str(dest / "config.yaml"), "--json"]
    code, out, _ = run(capsys, *eval_args, "--embedder", "hash", "--quiet")
    assert code == 0 and json.loads(out)


def test_the_command_line_defaults_are_the_library_s() -> None:
    from memlab.cli import build_parser
    from memlab.grids import shipped_grids
    from memlab.sweep.choice import DEFAULT_TOLERANCE
    from memlab.sweep.honest import DEFAULT_SPLITS

    args = build_parser(["sweep"]).parse_args(["sweep", "d", "--grid", "decide"])
    assert (args.cost_tolerance, args.splits, args.objective) == (
        DEFAULT_TOLERANCE,
        DEFAULT_SPLITS,
        "constrained",
    )
    from memlab.cli.sweep import epilog

    tolerance = f"--cost-tolerance ({DEFAULT_TOLERANCE:.0%})".replace("%", " %")
    assert tolerance in " ".join(epilog().split())
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    docs = (Path(__file__).resolve().parents[2] / "docs" / "decide.md").read_text()
    names = ", ".join(f"`{n}`" for n in ("decide", "broad", "index", "random"))
    assert sorted(shipped_grids()) == ["broad", "decide", "index", "random"]
    assert f"({names})" in readme and all(f"`{n}`" in docs for n in shipped_grids())
