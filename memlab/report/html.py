"""HTML copies of executed notebooks (nbconvert) and the report's index page (Jinja2).

nbconvert's HTML embeds every figure as a ``data:`` URI, so each page is one
self-contained file that a browser (or CI's artefact viewer) opens offline. Pages
are for people who did not run them: absolute paths of this machine (the report
folder, the datasets, memlab's checkout or install, the cache, the temp folder,
the home folder) are written as short names (``scrub_notebook``, before nbconvert
renders the page, so a name such as ``<datasets>`` is escaped like any other text
and shows as written), and ``no_input`` leaves the code cells out (``memlab
report --no-input``).
"""

from __future__ import annotations

import html
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab.report.baseline import CheckResult
from memlab.report.jobs import JobResult


def notebook_to_html(
    notebook: Path,
    target: Path | None = None,
    *,
    no_input: bool = False,
    paths: Mapping[str, str] | None = None,
) -> Path:
    """Write ``<notebook>.html`` beside the notebook (or at ``target``): without code
    cells with ``no_input``, with every absolute path of ``paths`` (``{path: name}``)
    replaced by its name."""
    import nbformat
    from nbconvert import HTMLExporter

    nb = scrub_notebook(nbformat.read(notebook, as_version=4), paths or {})
    exporter = HTMLExporter(
        template_name="lab",
        exclude_input=no_input,
        exclude_input_prompt=no_input,
        exclude_output_prompt=no_input,
    )
    # The lab template drops the alt text figures carry and nbconvert then warns once
    # per page; keep that out of the report's output.
    quiet = logging.getLogger("memlab.nbconvert")
    quiet.setLevel(logging.ERROR)
    exporter.log = quiet
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": notebook.stem}})
    target = target or notebook.with_suffix(".html")
    # Markdown and what the template adds (the title) are scrubbed on the page: there
    # every path left is text, so its name goes in escaped.
    target.write_text(scrub_paths(body, _escaped(paths or {})), encoding="utf-8")
    return target


def machine_paths(out_dir: Path, report_dir: Path, datasets: Sequence[Path]) -> dict[str, str]:
    """The absolute paths a report page may show, each with the name it is shown as."""
    import tempfile

    from memlab.datasets.locate import repo_root
    from memlab.eval.replay.prepared import default_work_dir

    names = {
        str(out_dir.resolve()): ".",
        str(report_dir.resolve()): "<report>",
        str(repo_root()): "<memlab>",
        str(Path(__file__).resolve().parents[1]): "<memlab>/memlab",
        str(default_work_dir().parent): "<cache>",
        str(Path(tempfile.gettempdir()).resolve()): "<tmp>",
        str(Path.home()): "~",
    }
    for ds in datasets:
        names[str(ds.resolve().parent)] = "<datasets>"
    return names


def scrub_paths(text: str, paths: Mapping[str, str]) -> str:
    """``text`` with each path of ``paths`` replaced by its name (longest first, so a
    folder inside another is named by the inner one)."""
    for path in sorted(paths, key=len, reverse=True):
        if len(path) > 1:
            text = text.replace(path, paths[path])
    return text


# Outputs whose text is HTML: a name put there must be escaped to show as text.
_MARKUP = ("text/html", "image/svg+xml")


def _escaped(paths: Mapping[str, str]) -> dict[str, str]:
    return {path: html.escape(name) for path, name in paths.items()}


def scrub_notebook(nb: Any, paths: Mapping[str, str]) -> Any:
    """``nb`` (an nbformat node, changed in place) with each path of ``paths`` replaced
    by its name in code cells and outputs: as plain text in code, streams, tracebacks
    and plain-text data (nbconvert escapes them), HTML-escaped in HTML and SVG outputs.
    Markdown (cells and outputs) is left to the page: there a name must be escaped
    outside code spans and not inside, which only the rendered page tells apart."""
    escaped = _escaped(paths)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = scrub_paths(cell.source, paths)
        for out in cell.get("outputs", []):
            if isinstance(out.get("text"), str):
                out["text"] = scrub_paths(out["text"], paths)
            if "traceback" in out:
                out["traceback"] = [scrub_paths(line, paths) for line in out["traceback"]]
            if isinstance(out.get("evalue"), str):
                out["evalue"] = scrub_paths(out["evalue"], paths)
            data = out.get("data", {})
            for mime, value in data.items():
                if not isinstance(value, str) or mime == "text/markdown":
                    continue
                if mime in _MARKUP or mime.startswith("text/"):
                    data[mime] = scrub_paths(value, escaped if mime in _MARKUP else paths)
    return nb


_INDEX = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>memlab report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.OK { color: #176f2c; font-weight: bold; } .FAIL { color: #b00020; font-weight: bold; }
.NEW, .SKIP { color: #8a6d00; font-weight: bold; }
</style></head><body>
<h1>memlab report — {{ verdict }}</h1>
<p>{% if date %}{{ date }} · {% endif %}memlab {{ version }}
{%- for check in checks if check.dataset %} · dataset {{ check.dataset.get("name", "?") }}
<code>{{ check.dataset.get("digest", "?") }}</code>{% endfor %}</p>
<h2>Notebooks</h2><table><tr><th></th><th>notebook</th><th>time</th><th></th></tr>
{% for job in jobs %}<tr><td class="{{ job.status }}">[{{ job.status }}]</td>
<td>{% if job.link %}<a href="{{ job.link }}">{{ job.key }}</a>
{%- else %}{{ job.key }}{% endif %}</td>
<td class="num">{{ "%.1f" | format(job.seconds) }} s</td><td>{{ job.detail }}</td></tr>
{% endfor %}</table>
{% for check in checks %}<h2>Baseline check: {{ check.key }}</h2>
{% if check.missing_entry %}<p class="SKIP">no baseline entry; write one with --write-baseline</p>
{% else %}<p>{{ legend }}</p>
{% for item in check.incompatible %}<p class="FAIL">[FAIL] incomparable with the baseline:
{{ item }}</p>{% endfor %}
{% if check.context %}<pre>{{ check.context | join("\n") }}</pre>{% endif %}
<table><tr><th>run</th>{% for m in check.pivot.measures %}<th>{{ m }}</th>{% endfor %}</tr>
{% for run, cells in check.pivot.rows %}<tr><td>{{ run }}</td>
{% for value, mark in cells %}<td class="num {{ marks.get(mark, '') }}">{{ value }}
{%- if mark %} {{ mark }}{% endif %}</td>{% endfor %}</tr>
{% endfor %}</table>
{% if check.pivot.deviations %}<table><tr><th></th><th>run</th><th>measure</th><th>value</th>
<th>baseline</th><th>Δ</th><th>tolerance</th><th>note</th></tr>
{% for c in check.pivot.deviations %}<tr><td class="{{ c.status }}">[{{ c.status }}]</td>
<td>{{ c.run }}</td><td>{{ c.measure }}</td><td class="num">{{ c.value | num }}</td>
<td class="num">{{ c.baseline | num }}</td><td class="num">{{ c.delta | num(signed=True) }}</td>
<td class="num">{{ "%g" | format(c.tolerance) }}</td><td>{{ c.note }}</td></tr>
{% endfor %}</table>
{% else %}<p class="OK">no deviation: all {{ check.checks | length }} values within their
tolerance</p>{% endif %}{% endif %}
{% endfor %}{% if directions %}<h2>Measures</h2><table><tr><th>measure</th><th>better</th></tr>
{% for m, text in directions.items() %}<tr class="measure"><td>{{ m }}</td><td>{{ text }}</td></tr>
{% endfor %}</table>{% endif %}</body></html>
"""


MARK_CLASSES = {"✗": "FAIL", "↑": "OK", "+": "NEW", "≠": "FAIL"}


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.4f}" if signed else f"{value:.4f}"


def index_page(
    target: Path,
    jobs: Sequence[JobResult],
    checks: Sequence[CheckResult],
    verdict: str,
    *,
    date: str = "",
) -> Path:
    """A small page linking every notebook's HTML, with the baseline checks, the date,
    memlab's version, the datasets' digests and which way each measure is better
    (Jinja2, every value escaped)."""
    import jinja2

    from memlab import __version__
    from memlab.report.summary import LEGEND, config_lines, directions, pivot, run_lines

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters["num"] = _num
    rows = [
        {
            "status": "OK" if job.ok else "FAIL",
            "key": job.key,
            "link": job.html.relative_to(target.parent).as_posix() if job.html else "",
            "seconds": job.seconds,
            "detail": job.failure.describe(job.notebook) if job.failure else "",
        }
        for job in jobs
    ]
    shown = [
        {
            "key": c.key,
            "missing_entry": c.missing_entry,
            "incompatible": c.incompatible,
            "context": [*config_lines(c), *run_lines(c)],
            "dataset": c.dataset,
            "checks": c.checks,
            "pivot": pivot(c),
        }
        for c in checks
    ]
    page = env.from_string(_INDEX).render(
        verdict=verdict,
        jobs=rows,
        checks=shown,
        legend=LEGEND,
        marks=MARK_CLASSES,
        date=date,
        version=__version__,
        directions=directions(list(checks)),
    )
    target.write_text(page, encoding="utf-8")
    return target
