"""Parameters are checked against each notebook before any kernel starts."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from memlab.cli import main
from memlab.errors import ReportError
from memlab.report.notebooks import bind, load_notebooks, parse_assignments
from memlab.report.run_report import ReportOptions, plan


def bound(names: list[str], *items: str) -> dict[str, dict[str, object]]:
    return bind(load_notebooks(names), parse_assignments(list(items)))


def test_unknown_parameter_is_rejected_with_a_suggestion() -> None:
    with pytest.raises(ReportError) as err:
        bound(["compare"], "mmr_lamda=0.5")
    message = str(err.value)
    assert message.startswith(
        "unknown parameter 'mmr_lamda' for notebook compare; did you mean 'mmr_lambda'?"
    )
    assert "valid: " in message and "top_changes" in message


def test_broken_parameter_fails_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(
        ["report", "--notebooks", "compare", "--param", "mmr_lamda=0.5", "--out", str(tmp_path)]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown parameter 'mmr_lamda' for notebook compare; did you mean 'mmr_lambda'?" in err
    assert not any(tmp_path.iterdir())  # nothing ran


def test_parameter_of_several_notebooks_names_them_all() -> None:
    with pytest.raises(ReportError, match="for notebooks tour, compare; did you mean 'query'"):
        bound(["tour", "compare"], "quer=x")


def test_values_are_checked_against_the_default_type() -> None:
    with pytest.raises(
        ReportError, match="parameter 'top_changes' of notebook compare expects int"
    ):
        bound(["compare"], "top_changes=many")
    with pytest.raises(ReportError, match="expects float"):
        bound(["compare"], "mmr_lambda=high")


def test_values_are_yaml_and_lists_accept_commas() -> None:
    got = bound(["compare"], "runs=fts,hybrid", "mmr_lambda=1", "categories=[fact, cjk]")
    assert got["compare"] == {
        "runs": ["fts", "hybrid"],
        "mmr_lambda": 1.0,
        "categories": ["fact", "cjk"],
    }


def test_a_parameter_applies_to_every_notebook_that_declares_it() -> None:
    got = bound(["compare", "regression", "agent_config"], "embedder=hash")
    assert got == {
        "compare": {"embedder": "hash"},
        "regression": {"embedder": "hash"},
        "agent_config": {},
    }


def test_scoped_parameter_targets_one_notebook() -> None:
    got = bound(["compare", "regression"], "compare.embedder=hash")
    assert got == {"compare": {"embedder": "hash"}, "regression": {}}
    with pytest.raises(
        ReportError, match="notebook 'comparre' is not selected; did you mean 'compare'"
    ):
        bound(["compare"], "comparre.embedder=hash")


def test_runner_parameters_cannot_be_set_by_hand() -> None:
    with pytest.raises(ReportError, match="'out_dir' is set by the runner; use --out"):
        bound(["compare"], "out_dir=/tmp/x")
    with pytest.raises(ReportError, match="use --datasets"):
        bound(["compare"], "dataset=x")


def test_malformed_assignment() -> None:
    with pytest.raises(ReportError, match="--param expects NAME=VALUE"):
        parse_assignments(["lambda"])


def test_unknown_notebook_is_rejected_with_a_suggestion() -> None:
    with pytest.raises(ReportError, match="unknown notebook 'compre'; did you mean 'compare'"):
        load_notebooks(["compre"])
    assert [nb.name for nb in load_notebooks(["agent-config"])] == ["agent_config"]


def test_plan_injects_dataset_out_dir_and_baseline(tiny_dataset: Path, tmp_path: Path) -> None:
    jobs = plan(
        ReportOptions(
            notebooks=["regression", "agent_config"],
            datasets=[str(tiny_dataset)],
            out=tmp_path,
        )
    )
    assert [j.key for j in jobs] == ["regression/tiny", "agent_config"]
    reg, agents = jobs
    assert reg.params["dataset"] == str(tiny_dataset.resolve())
    assert reg.params["out_dir"] == str(tmp_path.resolve() / "regression-tiny")
    assert "baseline" in reg.params
    assert agents.params == {"out_dir": str(tmp_path.resolve() / "agent_config")}


def test_unknown_dataset_and_datasets_nobody_takes(tmp_path: Path) -> None:
    with pytest.raises(
        ReportError, match="dataset 'agent-memroy' not found.*did you mean 'agent-memory'"
    ):
        plan(ReportOptions(notebooks=["compare"], datasets=["agent-memroy"], out=tmp_path))
    with pytest.raises(ReportError, match="no selected notebook takes a dataset"):
        plan(ReportOptions(notebooks=["agent_config"], datasets=["agent-memory"], out=tmp_path))


def test_missing_baseline_is_an_error_before_running(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="baseline .* not found; write one with"):
        plan(ReportOptions(baseline=tmp_path / "nope.json", out=tmp_path))


def test_a_notebook_papermill_cannot_read_is_rejected(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell('x = 1  # one\ny = ""  # empty = none\n')
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [cell]
    nbformat.write(nb, str(tmp_path / "nameless.ipynb"))
    with pytest.raises(ReportError, match="names no kernel"):
        load_notebooks(["nameless"], tmp_path)
    nb.metadata["kernelspec"] = {"name": "memlab", "display_name": "memlab", "language": "python"}
    nbformat.write(nb, str(tmp_path / "odd.ipynb"))
    with pytest.raises(
        ReportError, match="papermill cannot read parameter.*y; .*no '=' in the comment"
    ):
        load_notebooks(["odd"], tmp_path)
    nb.cells = []
    nbformat.write(nb, str(tmp_path / "bare.ipynb"))
    with pytest.raises(ReportError, match="has 0 cells tagged 'parameters'"):
        load_notebooks(["bare"], tmp_path)


def test_list_shows_every_parameter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--list"]) == 0
    out = capsys.readouterr().out
    assert "mmr_lambda = 0.7  # " in out and "regression  (" in out
    json.dumps(out)  # plain text


def test_a_parameters_file_as_papermill_reads_it(tmp_path: Path) -> None:
    """`-f params.yaml`: `name: value` for every notebook that declares it, a notebook's
    name with a mapping for that notebook; --param wins; mistakes fail as --param's do."""
    params = tmp_path / "params.yaml"
    params.write_text("top_changes: 7\ncompare:\n  mmr_lambda: 0.3\n  runs: [fts, hybrid]\n")
    jobs = plan(ReportOptions(notebooks=["compare"], params_file=params))
    assert jobs[0].params["top_changes"] == 7
    assert jobs[0].params["mmr_lambda"] == 0.3 and jobs[0].params["runs"] == ["fts", "hybrid"]
    jobs = plan(ReportOptions(notebooks=["compare"], params_file=params, params=["top_changes=3"]))
    assert jobs[0].params["top_changes"] == 3
    params.write_text("mmr_lamda: 0.3\n")
    with pytest.raises(ReportError, match="did you mean 'mmr_lambda'"):
        plan(ReportOptions(notebooks=["compare"], params_file=params))
    params.write_text("- a list\n")
    with pytest.raises(ReportError, match="expected 'name: value' lines"):
        plan(ReportOptions(notebooks=["compare"], params_file=params))
    code = main(["report", "-f", str(tmp_path / "none.yaml"), "--out", str(tmp_path / "o")])
    assert code == 2
