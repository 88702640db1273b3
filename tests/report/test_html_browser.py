"""The HTML report renders in headless Chromium, and a screenshot shows its plots."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.workbench.experiment_plots import COLORS

from .browser import colour_share, non_white_share, read_rgb, screenshot
from .conftest import Report


@pytest.mark.slow
def test_regression_html_shows_its_plots(tiny_regression: Report, tmp_path: Path) -> None:
    assert tiny_regression.code == 0, tiny_regression.summary
    html = tiny_regression.out / "regression-tiny" / "regression.html"
    png = screenshot(html, tmp_path / "regression.png")
    rgb = read_rgb(png)
    assert rgb.shape[:2] == (2400, 1280)
    assert rgb.std() > 20  # not a blank page
    assert 0.05 < non_white_share(rgb) < 0.9
    # the metric plot's bars: the first runs' colours cover a visible area
    bars = [colour_share(rgb, c) for c in COLORS[:3]]
    assert all(share > 0.001 for share in bars), bars


@pytest.mark.slow
def test_index_page_renders(tiny_regression: Report, tmp_path: Path) -> None:
    png = screenshot(tiny_regression.out / "index.html", tmp_path / "index.png", (1280, 900))
    rgb = read_rgb(png)
    assert non_white_share(rgb) > 0.01
    assert colour_share(rgb, "#176f2c", tol=30) > 0  # the green [OK] marks
