"""Notebooks as regression reports: papermill runner, parameter checks, baselines, HTML.

Modules::

    locate     where notebooks, shipped datasets and baselines live
    notebooks  the notebooks' ``parameters`` cells; ``--param`` checking
    execute    papermill in the ``memlab`` kernel; where a notebook failed
    baseline   the committed baseline format; ``[OK]`` / ``[FAIL]`` per metric
    config_diff  a run's settings against the baseline's: what differs, what it reaches
    html       nbconvert HTML copies and the index page
    summary    the summary text and JSON
    runner     ``run_report(ReportOptions)``: plan, run, check, summarise
    workspace  ``memlab init DIR``: the notebooks, dataset and baseline in a user's folder

The notebooks themselves call ``memlab.workbench``; this package never imports it.
"""

from __future__ import annotations

from memlab.report.run_report import ReportOptions, ReportResult, plan, run_report

__all__ = ["ReportOptions", "ReportResult", "plan", "run_report"]
