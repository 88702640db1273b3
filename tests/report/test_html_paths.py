"""The executed HTML shows machine paths as their short names, as text a reader sees.

The names (``<datasets>``, ``<report>``, ``<tmp>`` …) look like tags: put into the
page after nbconvert escaped it, a browser takes them for markup and shows
``dataset = "/agent-memory"``. The test parses the page and reads its visible text.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import nbformat

from memlab.report.html import machine_paths, notebook_to_html


class Visible(HTMLParser):
    """The text a browser shows: every text node outside script and style."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.add(tag)
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible(page: str) -> tuple[str, set[str]]:
    parser = Visible()
    parser.feed(page)
    return " ".join("".join(parser.parts).split()), parser.tags


def test_parameters_and_outputs_show_the_names_of_paths(tmp_path: Path) -> None:
    datasets = tmp_path / "shared" / "datasets"
    dataset = datasets / "agent-memory"
    dataset.mkdir(parents=True)
    out_dir = tmp_path / "report" / "tour"
    out_dir.mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    injected = nbformat.v4.new_code_cell(f'dataset = "{dataset}"\nout_dir = "{out_dir}"')
    injected.metadata["tags"] = ["injected-parameters"]  # what papermill adds
    shown = nbformat.v4.new_code_cell("wb.dataset_overview(data)")
    shown.outputs = [
        nbformat.v4.new_output("stream", text=f"replayed {dataset}\n"),
        nbformat.v4.new_output(
            "execute_result",
            data={
                "text/html": f"<table><tr><td>folder</td><td>{dataset}</td></tr></table>",
                "text/plain": f"folder {dataset}",
            },
            execution_count=1,
        ),
    ]
    markdown = f"# Tour\n\nData from `{dataset}` and {datasets}."
    nb.cells = [nbformat.v4.new_markdown_cell(markdown), injected, shown]
    executed = out_dir / "tour.ipynb"
    nbformat.write(nb, str(executed))
    paths = machine_paths(out_dir, tmp_path / "report", [dataset])
    page = notebook_to_html(executed, paths=paths).read_text(encoding="utf-8")
    text, tags = visible(page)
    assert str(tmp_path) not in page
    assert 'dataset = "<datasets>/agent-memory"' in text
    assert 'out_dir = "."' in text
    assert "replayed <datasets>/agent-memory" in text
    assert "folder<datasets>/agent-memory" in text  # the HTML table's cells
    assert "Data from <datasets>/agent-memory and <datasets>." in text
    assert not tags & {"datasets", "report", "tmp", "memlab", "cache"}
