"""The runner end to end on a tiny notebook: a failing cell is named; ``memlab lab``."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from memlab.cli import main
from memlab.cli.report import build_lab_command
from memlab.errors import ReportError
from memlab.report.execute import check_kernel
from memlab.report.runner import ReportOptions, run_report


def write_notebook(folder: Path, name: str, body: list[nbformat.NotebookNode]) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "memlab", "display_name": "memlab", "language": "python"}
    params = nbformat.v4.new_code_cell('divisor = 1  # what to divide by\nout_dir = ""  # outputs')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# A notebook"), params, *body]
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, str(path))
    return path


def test_a_failing_cell_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "nbs"
    folder.mkdir()
    write_notebook(
        folder,
        "fragile",
        [
            nbformat.v4.new_code_cell("x = 10"),
            nbformat.v4.new_markdown_cell("## Dividing"),
            nbformat.v4.new_code_cell("x / divisor"),
        ],
    )
    out = tmp_path / "out"
    ok = run_report(ReportOptions(notebooks=["fragile"], notebook_dir=folder, out=out, quiet=True))
    assert ok.exit_code == 0 and (out / "fragile" / "fragile.html").is_file()

    bad = run_report(
        ReportOptions(
            notebooks=["fragile"], notebook_dir=folder, out=out, quiet=True, params=["divisor=0"]
        )
    )
    assert bad.exit_code == 1
    failure = bad.jobs[0].failure
    assert failure is not None and failure.cell == 5 and failure.section == "Dividing"
    message = failure.describe("fragile")
    assert message.startswith("notebook fragile failed in cell 5 of 5")
    assert "section 'Dividing'" in message and "`x / divisor`" in message
    assert "ZeroDivisionError: division by zero" in message
    summary = (out / "summary.txt").read_text()
    assert "[FAIL] fragile" in summary and message in summary
    assert summary.strip().endswith("0 notebook(s) OK, 1 failed")
    assert (out / "fragile" / "fragile.html").is_file()  # the failed run is viewable too
    assert "[FAIL]" in (out / "index.html").read_text()


def test_kernel_must_be_installed() -> None:
    check_kernel("memlab")
    with pytest.raises(
        ReportError, match="kernel 'no-such-kernel' is not installed; run `make setup`"
    ):
        check_kernel("no-such-kernel")


def test_lab_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cmd = build_lab_command(tmp_path, port=8899, browser=False)
    assert cmd[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={tmp_path.resolve()}" in cmd
    assert "--MappingKernelManager.default_kernel_name=memlab" in cmd
    assert "--ServerApp.port=8899" in cmd and "--no-browser" in cmd
    assert main(["lab", "--print-command"]) == 0
    printed = capsys.readouterr().out
    assert (
        "jupyterlab" in printed
        and "notebooks" in printed
        and "default_kernel_name=memlab" in printed
    )
    assert main(["lab", "--notebook-dir", str(tmp_path / "none"), "--print-command"]) == 2


def test_index_and_dream_options_go_to_the_notebooks_that_take_them() -> None:
    from memlab.report.results import ReportOptions
    from memlab.report.runner import plan

    options = ReportOptions(
        notebooks=["compare", "dream_capacity"], memory={"tokenizer": "trigram", "dream": True}
    )
    jobs = {job.notebook.name: job for job in plan(options)}
    assert jobs["compare"].params["tokenizer"] == "trigram" and jobs["compare"].params["dream"]
    assert "tokenizer" not in jobs["dream_capacity"].params
    with pytest.raises(ReportError, match="no selected notebook takes them"):
        plan(ReportOptions(notebooks=["dream_capacity"], memory={"chunk_bytes": 800}))
