"""The Chinese edition of the tour is generated from the English notebook and its
translation table, never edited by hand: the committed file is what the generator
writes today, its code is the English code, and its terms are the chapter's.
It runs through papermill beside the English one in ``test_course_run.py``."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from memlab.errors import ReportError
from memlab.report.editions import EDITIONS, edition, edition_path, render, table_path
from memlab.report.shipped_paths import notebook_dir
from memlab.workbench.course import EXERCISES

# The chapter's own words (the seed, in Chinese) for what the course teaches.
TERMS = ("降级", "门控", "幂等", "失败关闭", "软降级", "最佳努力", "合并加权")


@pytest.mark.parametrize(("name", "lang"), [(n, lang) for n, ls in EDITIONS.items() for lang in ls])
def test_the_committed_edition_is_up_to_date(name: str, lang: str) -> None:
    committed = edition_path(name, lang).read_text(encoding="utf-8")
    assert committed == render(edition(name, lang)), (
        f"{edition_path(name, lang).name} is out of date: run "
        f"memlab.report.editions.write_edition({name!r}, {lang!r})"
    )


def test_same_code_other_text() -> None:
    english = nbformat.read(notebook_dir() / "tour.ipynb", as_version=4).cells
    chinese = nbformat.read(edition_path("tour", "zh"), as_version=4).cells
    assert [c.id for c in english] == [c.id for c in chinese]
    for en, zh in zip(english, chinese, strict=True):
        if en.cell_type == "code":
            assert en.source == zh.source
        else:
            assert en.source != zh.source and any("\u4e00" <= ch <= "\u9fff" for ch in zh.source)
    text = "\n".join(c.source for c in chinese if c.cell_type == "markdown")
    for term in TERMS:
        assert term in text, term
    tour_checks = [e.name for e in EXERCISES if e.notebook == "tour"]
    code = "\n".join(c.source for c in chinese if c.cell_type == "code")
    assert all(f'wb.check("{n}"' in code for n in tour_checks)


def test_a_changed_english_cell_asks_for_its_translation(tmp_path: Path) -> None:
    folder = tmp_path / "notebooks"
    (folder / "i18n").mkdir(parents=True)
    shutil.copy(notebook_dir() / "tour.ipynb", folder / "tour.ipynb")
    shutil.copy(table_path("tour", "zh"), table_path("tour", "zh", folder))
    assert edition("tour", "zh", folder).cells[0].source.startswith("# 智能体")
    nb = nbformat.read(folder / "tour.ipynb", as_version=4)
    nb.cells[3].source += "\n\nOne more English sentence."
    nbformat.write(nb, str(folder / "tour.ipynb"))
    with pytest.raises(ReportError, match=f"cell {nb.cells[3].id} changed since its zh"):
        edition("tour", "zh", folder)
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("A new cell.", id="tour-new"))
    nbformat.write(nb, str(folder / "tour.ipynb"))
    with pytest.raises(ReportError, match="cell tour-new has no zh translation"):
        edition("tour", "zh", folder)
