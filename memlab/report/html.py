"""HTML copies of executed notebooks (nbconvert) and the report's index page.

nbconvert's HTML embeds every figure as a ``data:`` URI, so each page is one
self-contained file that a browser (or CI's artefact viewer) opens offline.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memlab.report.baseline import CheckResult
    from memlab.report.runner import JobResult


def notebook_to_html(notebook: Path, target: Path | None = None) -> Path:
    """Write ``<notebook>.html`` beside the notebook (or at ``target``)."""
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(notebook, as_version=4)
    exporter = HTMLExporter(template_name="lab")
    # The lab template drops the alt text figures carry and nbconvert then warns once
    # per page; keep that out of the report's output.
    quiet = logging.getLogger("memlab.nbconvert")
    quiet.setLevel(logging.ERROR)
    exporter.log = quiet
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": notebook.stem}})
    target = target or notebook.with_suffix(".html")
    target.write_text(body, encoding="utf-8")
    return target


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.OK { color: #176f2c; font-weight: bold; } .FAIL { color: #b00020; font-weight: bold; }
.NEW, .SKIP { color: #8a6d00; font-weight: bold; }
"""


def index_page(
    target: Path,
    jobs: Sequence[JobResult],
    checks: Sequence[CheckResult],
    verdict: str,
) -> Path:
    """A small page linking every notebook's HTML, with the baseline checks."""
    rows = []
    for job in jobs:
        status = "OK" if job.ok else "FAIL"
        link = job.html.relative_to(target.parent).as_posix() if job.html else ""
        name = f'<a href="{html.escape(link)}">{html.escape(job.key)}</a>' if link else job.key
        detail = html.escape(job.failure.describe(job.notebook) if job.failure else "")
        rows.append(
            f'<tr><td class="{status}">[{status}]</td><td>{name}</td>'
            f'<td class="num">{job.seconds:.1f} s</td><td>{detail}</td></tr>'
        )
    sections = [
        f"<h1>memlab report — {html.escape(verdict)}</h1>",
        "<h2>Notebooks</h2><table><tr><th></th><th>notebook</th><th>time</th><th></th></tr>",
        *rows,
        "</table>",
    ]
    for check in checks:
        sections.append(_check_table(check))
    page = (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>memlab report</title>'
        f"<style>{_STYLE}</style></head><body>{''.join(sections)}</body></html>"
    )
    target.write_text(page, encoding="utf-8")
    return target


def _check_table(check: CheckResult) -> str:
    title = f"<h2>Baseline check: {html.escape(check.key)}</h2>"
    if check.missing_entry:
        return title + "<p class='SKIP'>no baseline entry; write one with --write-baseline</p>"
    head = (
        "<table><tr><th></th><th>run</th><th>measure</th><th>value</th><th>baseline</th>"
        "<th>Δ</th><th>tolerance</th><th>note</th></tr>"
    )
    body = []
    for c in check.checks:
        cells = [
            f'<td class="{c.status}">[{c.status}]</td>',
            f"<td>{html.escape(c.run)}</td>",
            f"<td>{html.escape(c.measure)}</td>",
            f'<td class="num">{_num(c.value)}</td>',
            f'<td class="num">{_num(c.baseline)}</td>',
            f'<td class="num">{_num(c.delta, signed=True)}</td>',
            f'<td class="num">{c.tolerance:g}</td>',
            f"<td>{html.escape(c.note)}</td>",
        ]
        body.append("<tr>" + "".join(cells) + "</tr>")
    return title + head + "".join(body) + "</table>"


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.4f}" if signed else f"{value:.4f}"
