"""``memlab report --chunking/--roles``: the notebooks that take index options take these."""

from __future__ import annotations

from memlab.eval.replay.prepared import PrepareOptions
from memlab.report.jobs import ReportOptions
from memlab.report.run_report import plan
from memlab.workbench.evaluation import prepare_benchmark


def test_chunking_and_roles_reach_the_notebooks() -> None:
    memory = {"chunking": "record", "roles": "user"}
    options = ReportOptions(notebooks=["compare", "regression", "sweep"], memory=memory)
    for job in plan(options):
        assert (job.params["chunking"], job.params["roles"]) == ("record", "user"), job.key


def test_the_workbench_prepares_with_them() -> None:
    prepared = prepare_benchmark(
        "agent-memory", PrepareOptions(chunking="file", roles="user,assistant")
    )
    chunking = prepared.index_config.chunking
    assert (chunking.mode, chunking.roles) == ("file", ("user", "assistant"))
    assert "one chunk per file, roles user,assistant" in prepared.memory.label()
