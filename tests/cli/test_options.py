"""One configuration merge for every command: profile → --config → flags → --set."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from memlab.cli import build_parser, main
from memlab.cli.options import parse_assignments, read_config_file, resolve_config
from memlab.errors import ConfigError


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_later_sources_win(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_text("profile: grok-2026-08\nmin_score: 0.5\nmmr: {lambda: 0.4}\n")
    args = parse("search", "root", "q", "--config", str(file), "--set", "min_score=0.2")
    config = resolve_config(args, "search", flags={"half_life_days": 3.0, "max_results": None})[0]
    assert config.profile == "grok-2026-08"  # the file's profile, since --profile is absent
    assert config.search.min_score == 0.2  # --set beats the file
    assert config.search.half_life_days == 3.0  # a flag beats the file and the profile
    assert config.search.mmr.lambda_ == 0.4 and config.search.mmr.enabled  # file, then profile
    args = parse("search", "root", "q", "--config", str(file), "--profile", "grok-c0")
    assert resolve_config(args, "search")[0].profile == "grok-c0"  # --profile beats the file


def test_source_weights_from_a_file_and_from_set(tmp_path: Path) -> None:
    """A nested ``source_weights`` in a file and a dotted ``--set`` reach the same field
    (the eval and sweep commands used to flatten it two different ways)."""
    file = tmp_path / "c.yaml"
    file.write_text("source_weights: {session: 0.5}\n")
    nested = resolve_config(parse("eval", "ds", "--config", str(file)), "search")[0].search
    dotted = resolve_config(parse("eval", "ds", "--set", "source_weights.session=0.5"), "search")
    assert nested == dotted[0].search and nested.source_weight("session") == 0.5
    both = parse("eval", "ds", "--config", str(file), "--set", "source_weights.global=2")
    weights = resolve_config(both, "search")[0].search.source_weights
    assert dict(weights) == {"global": 2.0, "session": 0.5}


def test_sectioned_files_and_prefixed_keys(tmp_path: Path) -> None:
    file = tmp_path / "d.yaml"
    file.write_text("dream: {min_hours: 24}\nsimulation: {users: 3}\n")
    args = parse("dream", "check", "root", "--config", str(file), "--set", "dream.min_sessions=9")
    config, data = resolve_config(args, "dream", extra=("simulation",))
    assert (config.dream.min_hours, config.dream.min_sessions) == (24.0, 9)
    assert data["simulation"] == {"users": 3}
    bad = tmp_path / "bad.yaml"
    bad.write_text("dream: {}\nsimulaton: {}\n")
    with pytest.raises(ConfigError, match="unknown key 'simulaton'"):
        read_config_file(str(bad), "dream", ("simulation",))


def test_values_and_mistakes() -> None:
    assert parse_assignments(["a=30", "b=0.5", "c=true", "d=null", "e=grok", "f=[1, 4]"]) == {
        "a": 30,
        "b": 0.5,
        "c": True,
        "d": None,
        "e": "grok",
        "f": [1, 4],
    }
    with pytest.raises(ConfigError, match="--set expects KEY=VALUE"):
        parse_assignments(["min_score"])
    with pytest.raises(ConfigError, match="not found"):
        read_config_file("/nonexistent/c.yaml", "search")


def test_search_takes_config_and_set(
    memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["index", str(memory), "--now", "2026-01-01"]) == 0
    capsys.readouterr()
    file = tmp_path / "s.yaml"
    file.write_text("max_results: 1\n")
    argv = ["search", str(memory), "API port pytest token", "--json", "--now", "2026-01-02"]
    assert main([*argv, "--set", "min_score=0", "--config", str(file)]) == 0
    assert len(json.loads(capsys.readouterr().out)["hits"]) == 1
    assert main([*argv, "--set", "min_scor=0"]) == 2
    assert "did you mean 'min_score'" in capsys.readouterr().err


def test_a_value_reads_as_yaml_reads_it() -> None:
    """``parse_value`` answers true/false and plain integers without loading yaml: the
    same values yaml gives, and every other text is yaml's."""
    import yaml

    from memlab.cli.options import parse_value

    texts = ["true", "false", "True", "FALSE", "yes", "no", "on", "off", "null", "~", "0",
             "7", "30", "010", "0x1f", "1_000", "-3", "+4", "0.5", "1e3", "1.0e3", ".inf",
             "١٢", "²", "[1, 4]", "c0", "", " 5", "5 ", "x=y"]  # fmt: skip
    for text in texts:
        expected = yaml.safe_load(text)
        got = parse_value(text)
        assert got == expected and type(got) is type(expected), text


def test_choices_and_help_come_from_the_registries() -> None:
    """--tokenizer's choices, --strategy's and --runs' help list the registries' names."""
    from memlab.config import STRATEGY_NAMES, TOKENIZERS
    from memlab.eval.runs.rankers import RANKERS

    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))

    def option(command: str, flag: str) -> argparse.Action:
        return next(a for a in subs.choices[command]._actions if flag in a.option_strings)

    assert tuple(option("index", "--tokenizer").choices or ()) == TOKENIZERS
    assert f"merge strategy: {', '.join(STRATEGY_NAMES)}" == option("search", "--strategy").help
    for command in ("compare", "pool"):
        assert f"{', '.join(RANKERS)}, ranker@profile" in str(option(command, "--runs").help)


def test_compare_reads_the_config_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``memlab compare`` takes search, index and Dream settings from one read of
    ``--config`` (and one parse of ``--set``), where it used to read the file three
    times and more."""
    import memlab.cli.options as options
    import memlab.config_file as config_file
    from tests.eval.conftest import write_eval_dataset

    dataset = write_eval_dataset(tmp_path / "ds")
    file = tmp_path / "c.yaml"
    file.write_text(
        "search: {min_score: 0.2}\nindex: {tokenizer: trigram}\ndream: {min_hours: 24}\n"
    )
    reads: list[str] = []
    parses: list[list[str]] = []
    real_read, real_parse = config_file.load_data, options.parse_assignments

    def counted_read(path, *rest, **kw):  # type: ignore[no-untyped-def]
        if Path(path) == file:
            reads.append(str(path))
        return real_read(path, *rest, **kw)

    def counted_parse(items, *rest):  # type: ignore[no-untyped-def]
        parses.append(list(items))
        return real_parse(items, *rest)

    monkeypatch.setattr(config_file, "load_data", counted_read)
    monkeypatch.setattr(options, "parse_assignments", counted_parse)
    out = tmp_path / "out"
    argv = ["compare", str(dataset), "--runs", "fts,hybrid", "--quiet", "--end-to-end-only"]
    argv += ["--config", str(file), "--set", "dream.min_sessions=2", "--dream", "on"]
    assert main([*argv, "--work", str(tmp_path / "w"), "--out", str(out)]) == 0
    assert len(reads) == 1 and len(parses) == 1
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["index"]["config"]["tokenizer"] == "trigram"  # the file's index
    dream = manifest["timeline"]["dream"]
    assert (dream["min_hours"], dream["min_sessions"]) == (24, 2)  # the file's, then --set
    assert manifest["runs"]["fts"]["config"]["min_score"] == 0.2  # the file's search
    capsys.readouterr()
