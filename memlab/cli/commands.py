"""The table of memlab's commands: the module that registers each and its one-line summary.

It is the one home of both. ``memlab --help`` (or a command line naming no known
command) is answered from this table alone, importing no command module; a command line
naming a command imports only its module, whose ``register`` takes the summary from
here.
"""

from __future__ import annotations

from typing import NamedTuple


class Command(NamedTuple):
    module: str
    summary: str


_ENGINE, _EVALUATE, _JUDGE, _REPORT = (
    "memlab.cli.search",
    "memlab.cli.evaluate",
    "memlab.cli.judge",
    "memlab.cli.report",
)

# in help order
COMMANDS: dict[str, Command] = {
    "index": Command(_ENGINE, "index a memory root (sync every changed file)"),
    "search": Command(_ENGINE, "search a memory root (sync-on-search first)"),
    "embedders": Command(_ENGINE, "list embedding providers and whether each works here"),
    "demo": Command(_ENGINE, "index the small shipped memory and show searches with traces"),
    "eval": Command(_EVALUATE, "evaluate one configuration on a labelled dataset"),
    "compare": Command(_EVALUATE, "compare rankers (fts, hybrid, mmr, peers) with statistics"),
    "warmup": Command(
        _EVALUATE, "compile ranx's metrics and the Dream simulator once (persistent numba cache)"
    ),
    "agents": Command(
        "memlab.cli.agents", "sub-agent configuration: discovery and the field-wise cascade"
    ),
    "dataset": Command(
        "memlab.cli.dataset", "validate, inspect, import and generate evaluation datasets"
    ),
    "pool": Command(
        _JUDGE, "pool the candidates to judge: the top k of several rankers, blind to which"
    ),
    "judge": Command(
        _JUDGE, "judge pooled candidates in the terminal (0/1/2, skip, abstention); resumable"
    ),
    "sweep": Command(
        "memlab.cli.sweep",
        "sweep search configurations (half-life, source weights, λ, …) on a dataset",
    ),
    "config": Command(
        "memlab.cli.config", "export a configuration as memlab YAML, Grok TOML and OpenClaw JSON"
    ),
    "dream": Command("memlab.cli.dream", "Dream consolidation: gates, one run, capacity simulator"),
    "report": Command(
        _REPORT, "run notebooks with papermill as a regression report against a baseline"
    ),
    "lab": Command(
        _REPORT, "open JupyterLab on a working copy of the notebooks, with the memlab kernel"
    ),
    "init": Command(
        _REPORT, "copy the notebooks, the shipped dataset (with vectors) and the baseline into DIR"
    ),
}


def summary(name: str) -> str:
    """The one-line help of command ``name`` (for its module's ``register``)."""
    return COMMANDS[name].summary
