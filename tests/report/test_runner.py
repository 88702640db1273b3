"""The runner end to end on a tiny notebook: a failing cell is named; ``memlab lab``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import nbformat
import pytest

from memlab.cli import main
from memlab.cli.report import build_lab_command
from memlab.errors import ReportError
from memlab.report.execute import check_kernel, install_kernel
from memlab.report.run_report import ReportOptions, run_report


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
        ReportError, match="kernel 'no-such-kernel' is not installed; install it .* --kernel memlab"
    ):
        check_kernel("no-such-kernel")


def test_kernel_installed_on_first_use(tmp_path: Path) -> None:
    """The memlab kernel a pip install gets on first use runs this Python."""
    import json
    import sys

    folder = install_kernel("memlab", prefix=tmp_path)
    assert folder == tmp_path / "share" / "jupyter" / "kernels" / "memlab"
    spec = json.loads((folder / "kernel.json").read_text())
    assert spec["argv"][0] == sys.executable
    assert spec["display_name"] == "memlab"


def test_lab_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cmd = build_lab_command(tmp_path, port=8899, browser=False)
    assert cmd[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={tmp_path.resolve()}" in cmd
    assert "--MappingKernelManager.default_kernel_name=memlab" in cmd
    assert "--ServerApp.port=8899" in cmd and "--no-browser" in cmd


def test_lab_opens_a_working_copy_and_passes_jupyterlab_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`memlab lab DIR` lays DIR out on first use, roots JupyterLab at DIR/notebooks
    (never the shipped notebooks) and passes what it does not know to JupyterLab."""
    import shlex

    from memlab.report.shipped_paths import notebook_dir

    work = tmp_path / "my lab"
    args = ["lab", str(work), "--print-command", "--allow-root", "--ServerApp.ip=0.0.0.0"]
    assert main(args) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("working copy: ") and "laid out" in printed[0]
    cmd = shlex.split(printed[-1])
    assert f"--ServerApp.root_dir={(work / 'notebooks').resolve()}" in cmd
    assert cmd[-2:] == ["--allow-root", "--ServerApp.ip=0.0.0.0"]
    shipped = sorted(p.name for p in notebook_dir().glob("*.ipynb"))
    assert sorted(p.name for p in (work / "notebooks").glob("*.ipynb")) == shipped
    # the second time the copy is the user's: nothing laid out again
    edited = work / "notebooks" / "tour.ipynb"
    edited.write_text("{}")
    assert main(args) == 0
    assert "working copy" not in capsys.readouterr().out
    assert edited.read_text() == "{}"
    # other commands still refuse what they do not know
    assert main(["search", "x", "--allow-root"]) == 2
    (tmp_path / "a file").write_text("")
    assert main(["lab", str(tmp_path / "a file"), "--print-command"]) == 2


def test_index_and_dream_options_go_to_the_notebooks_that_take_them() -> None:
    from memlab.report.jobs import ReportOptions
    from memlab.report.run_report import plan

    options = ReportOptions(
        notebooks=["compare", "dream_capacity"], memory={"tokenizer": "trigram", "dream": True}
    )
    jobs = {job.notebook.name: job for job in plan(options)}
    assert jobs["compare"].params["tokenizer"] == "trigram" and jobs["compare"].params["dream"]
    assert "tokenizer" not in jobs["dream_capacity"].params
    with pytest.raises(ReportError, match="no selected notebook takes them"):
        plan(ReportOptions(notebooks=["dream_capacity"], memory={"chunk_bytes": 800}))


def test_notebooks_run_in_parallel_each_in_its_own_kernel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two notebooks at once: results come back in the order asked, each from its own
    kernel process, and a failure is still named."""
    folder = tmp_path / "nbs"
    folder.mkdir()
    pid = nbformat.v4.new_code_cell(
        "import os, pathlib\npathlib.Path(out_dir, 'pid').write_text(str(os.getpid()))\n1 / divisor"
    )
    write_notebook(folder, "first", [pid])
    write_notebook(folder, "second", [pid])
    out = tmp_path / "out"
    options = ReportOptions(
        notebooks=["first", "second"], notebook_dir=folder, out=out, jobs=2, html=False
    )
    done = run_report(options, echo=print)
    assert [j.notebook for j in done.jobs] == ["first", "second"]
    assert done.exit_code == 0
    assert "running 2 notebooks, 2 at a time" in capsys.readouterr().out
    pids = {(out / name / "pid").read_text() for name in ("first", "second")}
    assert len(pids) == 2
    bad = run_report(replace(options, params=["second.divisor=0"], quiet=True))
    assert bad.exit_code == 1
    assert bad.jobs[0].failure is None and bad.jobs[1].failure is not None


def test_html_for_readers_has_no_code_and_no_machine_paths(tmp_path: Path) -> None:
    from memlab.report.html import machine_paths, notebook_to_html

    folder = tmp_path / "nbs"
    folder.mkdir()
    source = write_notebook(folder, "paths", [nbformat.v4.new_code_cell("secret_code = 1")])
    nb = nbformat.read(source, as_version=4)
    out_dir = tmp_path / "report" / "paths"
    out_dir.mkdir(parents=True)
    nb.cells[-1].outputs = [
        nbformat.v4.new_output("stream", text=f"wrote {out_dir / 'x.csv'} from {Path.home()}\n")
    ]
    executed = out_dir / "paths.ipynb"
    nbformat.write(nb, str(executed))
    paths = machine_paths(out_dir, tmp_path / "report", [])
    full = notebook_to_html(executed, paths=paths).read_text()
    assert "secret_code" in full and str(tmp_path) not in full and "wrote ./x.csv from ~" in full
    bare = notebook_to_html(executed, no_input=True, paths=paths).read_text()
    assert "secret_code" not in bare and "wrote ./x.csv" in bare
