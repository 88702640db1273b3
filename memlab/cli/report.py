"""``memlab report`` (notebooks as a regression report), ``memlab lab`` (JupyterLab on a
working copy) and ``memlab init`` (the notebooks, dataset and baseline in a folder).

``memlab report`` runs the regression notebook on the shipped dataset by
default and compares it with the committed baseline; exit code 1 on a
regression or a failed notebook (the summary names the notebook and the cell),
2 on bad input (an unknown notebook or parameter, a missing baseline).
``memlab lab`` passes every argument it does not know to JupyterLab
(``memlab lab --allow-root --ServerApp.ip=0.0.0.0``).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memlab.cli import in_ci
from memlab.cli.args import existing_dir, existing_file, integer, nonempty, number
from memlab.cli.commands import summary
from memlab.report.execute import DEFAULT_KERNEL

DEFAULT_LAB_DIR = "memlab-lab"  # memlab lab's working copy, in the current folder


def register(sub: Any) -> None:
    r = sub.add_parser(
        "report",
        help=summary("report"),
        description="Run report notebooks (default: regression on the shipped dataset).",
    )
    r.add_argument(
        "--notebooks",
        nargs="+",
        type=nonempty,
        default=["regression"],
        metavar="NAME",
        help="tour, compare, sweep, dream_capacity, agent_config, regression, or all",
    )
    r.add_argument(
        "--datasets",
        nargs="+",
        type=nonempty,
        default=[],
        metavar="DATASET",
        help="names or folders",
    )
    r.add_argument(
        "--baseline", type=Path, help="baseline file (default baselines/regression.json)"
    )
    r.add_argument("--out", type=Path, default=Path("out/report"), help="output folder")
    r.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="notebook parameter (YAML value); NOTEBOOK.NAME=VALUE for one notebook",
    )
    r.add_argument(
        "-f",
        "--parameters-file",
        type=existing_file,
        metavar="FILE.yaml",
        help="parameters as papermill reads them ('name: value'; a notebook's name with "
        "a mapping under it for that notebook); --param wins",
    )
    r.add_argument(
        "--notebook-dir",
        type=existing_dir,
        help="run the notebooks of this folder (e.g. a `memlab init` copy; default: the "
        "shipped ones)",
    )
    from memlab.cli.evaluate import add_memory_options

    add_memory_options(r)
    r.add_argument("--quiet", action="store_true", help="no progress (the default when $CI is set)")
    r.add_argument("--kernel", default=DEFAULT_KERNEL, help="Jupyter kernel name")
    r.add_argument(
        "--start-timeout",
        type=number(0, open_lo=True),
        default=120.0,
        help="kernel start timeout (s)",
    )
    r.add_argument(
        "--cell-timeout", type=number(0, open_lo=True), default=900.0, help="timeout per cell (s)"
    )
    r.add_argument("--write-baseline", type=Path, metavar="FILE", help="write results as baseline")
    r.add_argument("--no-html", action="store_true", help="skip the HTML copies")
    r.add_argument(
        "--no-input",
        action="store_true",
        help="HTML copies without the code cells (for readers of the results)",
    )
    r.add_argument(
        "--jobs",
        type=integer(1, 64),
        default=0,
        metavar="N",
        help="notebooks run at once, each in its own kernel (default: the cores, at most 2)",
    )
    r.add_argument("--list", action="store_true", help="list the notebooks and their parameters")
    r.set_defaults(func=cmd_report)

    lab = sub.add_parser(
        "lab",
        help=summary("lab"),
        description="JupyterLab on DIR/notebooks (laid out by `memlab init DIR` on first use), "
        "never on the notebooks memlab ships. Arguments memlab does not know go to "
        "JupyterLab (e.g. --allow-root, --ServerApp.ip=0.0.0.0).",
    )
    lab.add_argument(
        "dir",
        nargs="?",
        default=DEFAULT_LAB_DIR,
        type=Path,
        help=f"the working copy (default ./{DEFAULT_LAB_DIR}; created on first use)",
    )
    lab.add_argument("--port", type=integer(1, 65535), help="server port")
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")
    lab.add_argument("--kernel", default=DEFAULT_KERNEL, help="Jupyter kernel name")
    lab.add_argument("--print-command", action="store_true", help="print the command, do not run")
    lab.set_defaults(func=cmd_lab, pass_through=True)

    init = sub.add_parser(
        "init",
        help=summary("init"),
    )
    init.add_argument("dir", type=Path, help="the folder to lay out (created if missing)")
    init.add_argument("--force", action="store_true", help="overwrite files already there")
    init.set_defaults(func=cmd_init)


def cmd_report(args: argparse.Namespace) -> int:
    from memlab.report.run_report import ReportOptions, run_report
    from memlab.report.summary import summary_text

    if args.list:
        return list_notebooks(args.notebook_dir)
    options = ReportOptions(
        notebooks=args.notebooks,
        datasets=args.datasets,
        params=args.param,
        baseline=args.baseline,
        out=args.out,
        quiet=args.quiet or in_ci(),
        kernel=args.kernel,
        start_timeout=args.start_timeout,
        cell_timeout=args.cell_timeout,
        write_baseline=args.write_baseline,
        html=not args.no_html,
        params_file=args.parameters_file,
        no_input=args.no_input,
        jobs=args.jobs,
        notebook_dir=args.notebook_dir,
        memory={
            "tokenizer": args.tokenizer,
            "chunk_bytes": args.chunk_bytes,
            "chunk_overlap": args.chunk_overlap,
            "chunking": args.chunking,
            "roles": args.roles,
            "dream": None if args.dream is None else args.dream == "on",
        },
    )
    result = run_report(options, echo=lambda line: print(line, file=sys.stderr, flush=True))
    print(summary_text(result))
    return result.exit_code


def list_notebooks(folder: Path | None = None) -> int:
    from memlab.report.notebooks import available, inspect

    for name, path in available(folder).items():
        print(f"{name}  ({path})")
        for param in inspect(path).values():
            print(f"    {param.name} = {param.source}  # {param.help}")
    return 0


def build_lab_command(
    notebook_dir: Path,
    *,
    kernel: str = DEFAULT_KERNEL,
    port: int | None = None,
    browser: bool = True,
    extra: Sequence[str] = (),
) -> list[str]:
    """The JupyterLab command line: notebooks folder as root, the memlab kernel as default,
    then ``extra`` (JupyterLab's own arguments) as given."""
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.root_dir={notebook_dir.resolve()}",
        f"--MappingKernelManager.default_kernel_name={kernel}",
    ]
    if port is not None:
        cmd.append(f"--ServerApp.port={port}")
    if not browser:
        cmd.append("--no-browser")
    return [*cmd, *extra]


# JupyterLab's options for its root folder: memlab lab sets it to DIR/notebooks
ROOT_OPTIONS = ("--notebook-dir", "--ServerApp.root_dir", "--NotebookApp.notebook_dir")


def cmd_lab(args: argparse.Namespace) -> int:
    from memlab.errors import ReportError
    from memlab.report.execute import check_kernel
    from memlab.report.init_folder import working_copy

    for arg in getattr(args, "extra", []):
        if arg.split("=", 1)[0] in ROOT_OPTIONS:
            raise ReportError(
                f"{arg.split('=', 1)[0]}: memlab lab opens DIR/notebooks; pass the folder as "
                "DIR (`memlab lab DIR`, laid out by `memlab init DIR` on first use)"
            )
    folder, laid_out = working_copy(args.dir)
    if laid_out is not None:
        print(f"working copy: {len(laid_out.written)} file(s) laid out in {args.dir}", flush=True)
    check_kernel(args.kernel)
    cmd = build_lab_command(
        folder,
        kernel=args.kernel,
        port=args.port,
        browser=not args.no_browser,
        extra=getattr(args, "extra", []),
    )
    if args.print_command:
        print(shlex.join(cmd))
        return 0
    return subprocess.call(cmd)


def cmd_init(args: argparse.Namespace) -> int:
    from memlab.report.init_folder import lay_out

    done = lay_out(args.dir, force=args.force)
    print(f"{args.dir}: {len(done.written)} written, {len(done.kept)} kept (--force overwrites)")
    for path in done.written:
        print(f"  {path}")
    print(
        f"next: memlab lab {args.dir}  |  memlab report --notebook-dir {args.dir / 'notebooks'} "
        f"--baseline {args.dir / 'baselines' / 'regression.json'}  |  memlab compare "
        f"{args.dir / 'datasets' / 'agent-memory'}  |  memlab sweep "
        f"{args.dir / 'datasets' / 'agent-memory'} --grid {args.dir / 'grids' / 'decide.yaml'}"
    )
    return 0
