"""The export folder: memlab's config reads back as the very configuration exported."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from memlab.cli.evaluate import base_config, index_options
from memlab.config import SearchConfig, config_hash, profile, with_overrides
from memlab.errors import ConfigError
from memlab.eval.replay.memory import Memory
from memlab.eval.runs.rankers import read_run
from memlab.export import write_export
from memlab.export.export_folder import same_search


def args_for(config: Path, **flags: object) -> argparse.Namespace:
    base = {
        "config": str(config),
        "profile": None,
        "set": [],
        "tokenizer": None,
        "chunk_bytes": None,
        "chunk_overlap": None,
        "chunking": None,
        "roles": None,
    }
    return argparse.Namespace(**{**base, **flags})


@pytest.mark.parametrize(
    ("profile_name", "overrides", "index"),
    [
        ("grok-c0", {"half_life_days": None, "source_weights.session": 0.8}, {}),
        ("grok-2026-08", {"mmr.lambda": 0.5, "strategy": "rrf"}, {"tokenizer": "porter"}),
        ("standard-ir", {"max_results": 20}, {"chunk_bytes": 800, "chunking": "record"}),
    ],
)
def test_the_memlab_config_reads_back_exactly(
    tmp_path: Path, profile_name: str, overrides: dict[str, object], index: dict[str, object]
) -> None:
    search = with_overrides(profile(profile_name).search, overrides)
    ix = Memory().refined(**index).index  # type: ignore[arg-type]
    done = write_export(tmp_path, search, index=ix, profile_name=profile_name, index_options=index)
    chosen = tmp_path / "chosen.yaml"
    assert chosen in done.written
    run = read_run(chosen)  # as --runs NAME=FILE reads it
    assert config_hash(run.config) == config_hash(search) and dict(run.index) == index
    found = args_for(chosen)  # as --config reads it
    assert config_hash(base_config(found)) == config_hash(search)
    given = {k: v for k, v in index_options(found).items() if v is not None}
    if profile_name == "standard-ir":
        given.pop("tokenizer")  # the profile's own porter, as --profile standard-ir gives
    assert given == index


def test_a_removed_source_weight_is_exported_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A diff from the profile cannot say "no weight": it says 1.0, what a missing one means."""
    from memlab.config import PROFILES, MemlabConfig

    weighted = MemlabConfig(
        profile="weighted", search=SearchConfig(source_weights={"session": 0.5})
    )
    monkeypatch.setitem(PROFILES, "weighted", weighted)
    search = SearchConfig()
    write_export(tmp_path, search, index=Memory().index, profile_name="weighted")
    back = read_run(tmp_path / "chosen.yaml").config
    assert dict(back.source_weights) == {"session": 1.0} and same_search(back, search)


def test_flags_win_over_the_config_file_s_index_section(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_text("index:\n  tokenizer: porter\n  chunking: {max_bytes: 900}\n")
    got = index_options(args_for(file, tokenizer="trigram"))
    assert (got["tokenizer"], got["chunk_bytes"]) == ("trigram", 900)
    file.write_text("index:\n  tokenizr: porter\n")
    with pytest.raises(ConfigError, match=r"c.yaml: index: unknown setting 'tokenizr'"):
        index_options(args_for(file))


def test_an_export_into_a_file_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "taken"
    file.write_text("mine")
    with pytest.raises(ConfigError, match="is not a folder"):
        write_export(file, SearchConfig(), index=Memory().index, profile_name="grok-c0")
    assert file.read_text() == "mine"
