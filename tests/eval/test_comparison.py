"""The compare pipeline ``memlab compare`` and the workbench share, and PrepareOptions."""

from __future__ import annotations

import gc
from pathlib import Path

from memlab.cli import build_parser
from memlab.cli.evaluate import prepare_options, resolved
from memlab.config import DreamConfig, profile
from memlab.eval.compare.orchestration import (
    compare_runs,
    fewer_collections,
    own_dream,
    separation_measure,
)
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.prepared import PrepareOptions


def test_notebook_parameters_become_options() -> None:
    """Empty strings (a notebook's "unset") are None, lists are tuples (hashable)."""
    options = PrepareOptions(embedder="", tokenizer="", roles="", categories=["a", "b"])
    assert (options.embedder, options.tokenizer, options.roles) == (None, None, None)
    assert options.categories == ("a", "b") and hash(options)
    assert PrepareOptions().replay_dream() is None  # memory_for's default (c0's)
    assert PrepareOptions(profile="grok-2026-08").replay_dream() == profile("grok-2026-08").dream
    mine = DreamConfig(min_hours=1.0)
    assert PrepareOptions(profile="grok-2026-08", dream_config=mine).replay_dream() == mine


def test_the_command_line_builds_the_same_options(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_text("profile: grok-2026-08\nindex: {tokenizer: trigram}\ndream: {min_hours: 2}\n")
    argv = ["compare", "ds", "--config", str(file), "--set", "dream.min_sessions=7"]
    argv += ["--exclude-tag", "x", "--embedder", "hash", "--dream", "on", "--level", "turn"]
    args = build_parser().parse_args(argv)
    options = prepare_options(args, resolved(args))
    assert (options.embedder, options.level, options.exclude_tags) == ("hash", "turn", ("x",))
    assert options.tokenizer == "trigram" and options.dream is True
    assert options.dream_config is not None
    assert (options.dream_config.min_hours, options.dream_config.min_sessions) == (2.0, 7)
    assert options.dream_config.check_interval_secs == 3600.0  # grok-2026-08's, from the file


def test_one_dream_rule_for_runs_on_another_profile() -> None:
    runs = compare_runs("fts,hybrid@grok-2026-08,hybrid@grok-c0,mmr", mmr_lambda=0.4)
    assert runs["mmr"].config.mmr.lambda_ == 0.4
    dreaming = Memory(dream=profile("grok-c0").dream)
    mine = own_dream(runs, dreaming, "grok-c0")
    other = mine["hybrid@grok-2026-08"]
    assert other.memory is not None and other.memory.dream == profile("grok-2026-08").dream
    assert all(mine[n].memory is None for n in ("fts", "hybrid@grok-c0", "mmr"))
    assert own_dream(runs, Memory(), "grok-c0") == runs  # Dream off: one memory for all


def test_separation_measure_and_nested_collections() -> None:
    assert separation_measure(["R@5", "nDCG@10"]) == "nDCG@10"
    assert separation_measure(["NumQ", "R@5"]) == "R@5"
    assert separation_measure(["NumQ"]) is None
    before = gc.get_threshold()
    with fewer_collections(gen0=before[0] + 1):
        with fewer_collections(gen0=before[0] + 2):  # the outer block stays in charge
            assert gc.get_threshold()[0] == before[0] + 1
        assert gc.get_threshold()[0] == before[0] + 1
    assert gc.get_threshold() == before
