"""``memlab report`` (notebooks as a regression report) and ``memlab lab`` (JupyterLab).

``memlab report`` runs the regression notebook on the shipped dataset by
default and compares it with the committed baseline; exit code 1 on a
regression or a failed notebook (the summary names the notebook and the cell),
2 on bad input (an unknown notebook or parameter, a missing baseline).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from memlab.cli.args import integer, nonempty, number
from memlab.report.execute import DEFAULT_KERNEL


def register(sub: Any) -> None:
    r = sub.add_parser(
        "report",
        help="run notebooks with papermill as a regression report against a baseline",
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
    r.add_argument("--list", action="store_true", help="list the notebooks and their parameters")
    r.set_defaults(func=cmd_report)

    lab = sub.add_parser("lab", help="open JupyterLab on the notebooks with the memlab kernel")
    lab.add_argument("--notebook-dir", type=Path, help="default: the checkout's notebooks/")
    lab.add_argument("--port", type=integer(1, 65535), help="server port")
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")
    lab.add_argument("--kernel", default=DEFAULT_KERNEL, help="Jupyter kernel name")
    lab.add_argument("--print-command", action="store_true", help="print the command, do not run")
    lab.set_defaults(func=cmd_lab)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def cmd_report(args: argparse.Namespace) -> int:
    from memlab.report.runner import ReportOptions, run_report
    from memlab.report.summary import summary_text

    if args.list:
        return list_notebooks()
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


def list_notebooks() -> int:
    from memlab.report.notebooks import available, inspect

    for name, path in available().items():
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
) -> list[str]:
    """The JupyterLab command line: notebooks folder as root, the memlab kernel as default."""
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
    return cmd


def cmd_lab(args: argparse.Namespace) -> int:
    from memlab.errors import ReportError
    from memlab.report.execute import check_kernel
    from memlab.report.locate import notebook_dir

    folder = args.notebook_dir or notebook_dir()
    if not folder.is_dir():
        raise ReportError(f"notebooks folder {folder} not found; pass --notebook-dir")
    check_kernel(args.kernel)
    cmd = build_lab_command(folder, kernel=args.kernel, port=args.port, browser=not args.no_browser)
    if args.print_command:
        print(" ".join(cmd))
        return 0
    return subprocess.call(cmd)
