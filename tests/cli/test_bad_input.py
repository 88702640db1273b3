"""Every subcommand × bad flags, values and paths: exit 2, one line, no traceback, nothing lost.

Each case names what the error line must mention (the flag, the value or the
file), so the message points at the input. After every case the memory root
and the zoo of hostile files are byte for byte as before — in particular
``index --index FILE --rebuild`` never deletes or converts a file that is not a
memlab index (issue 12, item 1). The issue's 17 tracebacks and 14 wrong
exit-0 cases are in the table (marked ``#T`` and ``#0``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memlab.cli import main
from tests.cli.zoo import Zoo, digest_tree
from tests.conftest import docs_say

R, D = "{root}", "{ds}"
S = ["search", R, "token bug"]
I = ["index", R, "--workspace", "{ws}"]  # noqa: E741

CASES: list[tuple[list[str], str]] = [
    # ---- index: the root, the workspace, the index file (item 1)
    (["index", "{missing}"], "does not exist"),
    (["index", "{file}"], "not a directory"),
    (["index", R], "several workspaces"),
    (["index", R, "--workspace", "/abs/dir"], "--workspace"),
    (["index", R, "--workspace", "../x"], "--workspace"),
    (["index", R, "--workspace", "."], "--workspace"),
    (["index", R, "--workspace", ""], "--workspace"),
    (["index", R, "--workspace", "a/b"], "--workspace"),
    (["index", R, "--workspace", ".hidden"], "--workspace"),
    (["index", R, "--workspace", "linked-9999zzzz"], "symbolic link"),
    (["index", R, "--workspace", "nope-0000"], "nope-0000"),
    ([*I, "--index", "{md}", "--rebuild"], "MEMORY.md"),  # #0 global memory became SQLite
    ([*I, "--index", "{wsmd}"], "Markdown"),
    ([*I, "--index", "{empty}", "--rebuild"], "empty"),  # #0 silently converted
    ([*I, "--index", "{empty}"], "empty"),
    ([*I, "--index", "{file}", "--rebuild"], "notes.txt"),
    ([*I, "--index", "{otherdb}", "--rebuild"], "meta table"),
    ([*I, "--index", "{otherdb}"], "meta table"),
    ([*I, "--index", "{fifo}"], "FIFO"),
    ([*I, "--index", "/dev/null"], "/dev/null"),  # #T
    ([*I, "--index", "/dev/null", "--rebuild"], "/dev/null"),
    ([*I, "--index", "{dir}"], "directory"),
    ([*I, "--tokenizer", "bogus"], "--tokenizer"),
    ([*I, "--embedder", "hsah"], "did you mean 'hash'"),
    ([*I, "--embedder", "hash:0"], "hash dimension"),  # #T
    ([*I, "--embedder", "hash:-5"], "hash dimension"),
    ([*I, "--embedder", "hash:x"], "hash dimension"),
    ([*I, "--embedder", "hash:99999999"], "hash dimension"),
    ([*I, "--embedder", "faulty:raise:nan:hash"], "fault rate"),
    ([*I, "--embedder", "faulty:nope:hash"], "fault mode"),
    ([*I, "--embedder", "cache:"], "cache needs"),
    ([*I, "--now", "nan"], "--now"),
    ([*I, "--now", "inf"], "--now"),
    ([*I, "--now", "-1"], "--now"),
    ([*I, "--now", "1e300"], "--now"),
    ([*I, "--now", "yesterday"], "cannot read time"),
    ([*I, "--bogus"], "--bogus"),
    # ---- search: every number is checked (item 10)
    (["search", "{missing}", "x"], "does not exist"),
    ([*S, "--workspace", "../x"], "--workspace"),
    ([*S, "--workspace", "{ws}", "--max-results", "99999999999999999999"], "--max-results"),  # #T
    ([*S, "--workspace", "{ws}", "--max-results", "0"], "--max-results"),
    ([*S, "--workspace", "{ws}", "--max-results", "-3"], "--max-results"),
    ([*S, "--workspace", "{ws}", "--max-results", "many"], "--max-results"),
    ([*S, "--workspace", "{ws}", "--half-life", "nan"], "--half-life"),  # #0
    ([*S, "--workspace", "{ws}", "--half-life", "-3"], "--half-life"),  # #0
    ([*S, "--workspace", "{ws}", "--half-life", "inf"], "--half-life"),
    ([*S, "--workspace", "{ws}", "--half-life", "week"], "--half-life"),
    ([*S, "--workspace", "{ws}", "--lambda", "2"], "--lambda"),  # #0
    ([*S, "--workspace", "{ws}", "--lambda", "-0.1"], "--lambda"),
    ([*S, "--workspace", "{ws}", "--lambda", "nan"], "--lambda"),
    ([*S, "--workspace", "{ws}", "--min-score", "5"], "--min-score"),  # #0
    ([*S, "--workspace", "{ws}", "--min-score", "-1"], "--min-score"),
    ([*S, "--workspace", "{ws}", "--min-score", "nan"], "--min-score"),
    ([*S, "--workspace", "{ws}", "--now", "nan"], "--now"),  # #0
    ([*S, "--workspace", "{ws}", "--now", "-inf"], "--now"),
    ([*S, "--workspace", "{ws}", "--strategy", "rff"], "did you mean 'rrf'"),
    ([*S, "--workspace", "{ws}", "--profile", "nope"], "unknown profile 'nope'"),
    ([*S, "--workspace", "{ws}", "--keywords", "nfc"], "--keywords"),
    ([*S, "--workspace", "{ws}", "--index", "{md}"], "Markdown"),
    ([*S, "--workspace", "{ws}", "--index", "{otherdb}"], "meta table"),
    ([*S, "--workspace", "{ws}", "--embedder", "hash:0"], "hash dimension"),
    (["search", R, "bad \udcff byte", "--workspace", "{ws}", "--json"], "UTF-8"),  # #T
    (["search", R, "nul \x00 byte", "--workspace", "{ws}"], "NUL"),
    (["search", R], "query"),
    # ---- embedders, demo, warmup
    (["embedders", "--bogus"], "--bogus"),
    (["demo", "--out", "{file}"], "notes.txt"),
    (["warmup", "extra"], "extra"),
    # ---- eval / compare (item 10)
    (["eval", "{missing}"], "path"),
    (["eval", "{file}"], "notes.txt"),
    (["eval", D, "--profile", "nope"], "nope"),
    (["eval", D, "--config", "{missing}"], "not found"),
    (["eval", D, "--config", "{bad_yaml}"], "bad.yaml"),  # #T
    (["eval", D, "--config", "{deep_yaml}"], "nested too deeply"),  # #T
    (["eval", D, "--config", "{list_yaml}"], "mapping"),
    (["eval", D, "--config", "{not_utf8}"], "UTF-8"),
    (["eval", D, "--config", "{fifo}"], "FIFO"),
    (["eval", D, "--config", "{dir}"], "directory"),
    (["eval", D, "--set", "half_life_days"], "KEY=VALUE"),
    (["eval", D, "--set", "half_lfe_days=3"], "half_lfe_days"),
    (["eval", D, "--set", "half_life_days=.nan"], "half_life_days"),
    (["eval", D, "--set", "mmr.lambda=.nan"], "mmr.lambda"),
    (["eval", D, "--set", "max_results=99999999999999999999"], "max_results"),
    (["eval", D, "--set", "keywords=nfd"], "keywords"),
    (["eval", D, "--set", "half_life_days=" + "[" * 20_000 + "]" * 20_000], "nested too deeply"),
    (["eval", D, "--unit", "page"], "--unit"),
    (["eval", D, "--measures", ""], "--measures"),
    (["eval", D, "--measures", ",,"], "--measures"),
    (["eval", D, "--measures", "bogus"], "bogus"),
    (["eval", D, "--level", "bogus"], "bogus"),
    (["eval", D, "--embedder", "hash:0"], "hash dimension"),
    (["compare", D, "--runs", ""], "--runs"),
    (["compare", D, "--runs", "fts,bogus"], "bogus"),
    (["compare", D, "--test", "z"], "--test"),
    # ---- agents (items 4, 10)
    (["agents", "list", "--cwd", "{missing}"], "--cwd"),
    (["agents", "list", "--cwd", "{file}"], "--cwd"),
    (["agents", "list", "--config", "{missing}"], "path"),
    (["agents", "list", "--config", "{bad_toml}"], "bad.toml"),
    (["agents", "list", "--config", "{deep_toml}"], "nested too deeply"),  # #T
    (["agents", "list", "--config", "{fifo}"], "FIFO"),
    (["agents", "list", "--config", "{dir}"], "directory"),
    (["agents", "resolve", "nosuchtype", "--cwd", "{dir}"], "nosuchtype"),
    (["agents", "resolve", "explore", "--set", "bogus=1", "--cwd", "{dir}"], "bogus"),
    (["agents", "resolve", "explore", "--set", "model", "--cwd", "{dir}"], "model"),
    # ---- dataset (item 10)
    (["dataset", "digest", "{missing}"], "does not exist"),  # #0 printed a digest of nothing
    (["dataset", "digest", "{file}"], "notes.txt"),
    (["dataset", "validate", "{missing}"], "does not exist"),
    (["dataset", "info", "{missing}"], "does not exist"),
    (["dataset", "info", "{dir}"], "manifest"),
    (["dataset", "vectors", "{missing}"], "does not exist"),
    (["dataset", "vectors", D, "--embedder", "hash:0"], "hash dimension"),
    (["dataset", "import", "bogus", "{file}", "{base}/imp1"], "bogus"),
    (["dataset", "import", "beir", "{missing}", "{base}/imp2"], "path"),
    (["dataset", "import", "locomo", "{deep_json}", "{base}/imp3"], "nested too deeply"),
    (["dataset", "import", "locomo", "{file}", "{base}/imp4", "--limit", "0"], "--limit"),
    (["dataset", "import", "locomo", "{file}", "{base}/imp5", "--as-of", "soon"], "soon"),
    (["dataset", "import", "beir", "{file}", D], "--force"),
    (["dataset", "generate", D], "--force"),
    (["dataset", "generate", "{base}/gen", "--seed", "-1"], "--seed"),
    # ---- dataset from-memory, pool, judge (issue 17): nothing is written on bad input
    (["dataset", "from-memory", "{missing}", "{base}/fm1"], "does not exist"),
    (["dataset", "from-memory", "{file}", "{base}/fm2"], "not a directory"),
    (["dataset", "from-memory", R, "{root}/ds"], "inside the memory folder"),
    (["dataset", "from-memory", R, "{base}/fm3", "--queries", "{fifo}"], "--queries"),
    (["dataset", "from-memory", R, "{base}/fm4", "--queries", "{missing}"], "--queries"),
    (["dataset", "from-memory", R, "{base}/fm5", "--queries", "{not_utf8}"], "UTF-8"),
    (["dataset", "from-memory", R, "{base}/fm6", "--as-of", "soon"], "soon"),
    (["dataset", "from-memory", R, "{base}/fm7", "--dates", "ctime"], "--dates"),
    (["dataset", "from-memory", R, D], "--force"),
    (["pool", "{missing}"], "no manifest.json"),
    (["pool", "{dir}"], "no manifest.json"),
    (["pool", D, "--runs", "fts,hybird"], "did you mean 'hybrid'"),
    (["pool", D, "--runs", ""], "--runs"),
    (["pool", D, "--runs", "mine={bad_yaml}"], "bad.yaml"),
    (["pool", D, "--runs", "mine={deep_yaml}"], "nested too deeply"),
    (["pool", D, "--runs", "mine={fifo}"], "fifo"),
    (["pool", D, "--depth", "0"], "--depth"),
    (["pool", D, "--seed", "-1"], "--seed"),
    (["judge", "{missing}"], "no manifest.json"),
    (["judge", D, "--qrels", "{fifo}"], "must be a regular file"),
    (["judge", D, "--qrels", "{dir}"], "must be a regular file"),
    (["judge", D, "--health", "--depth", "0"], "--depth"),
    (["judge", D, "--health", "--agreement", "{missing}"], "not found"),
    (["judge", D, "--health", "--runs", "fts,mine=x"], "not found"),
    # ---- sweep (item 10)
    (["sweep", D], "--grid"),
    (["sweep", D, "--grid", "{missing}"], "--grid"),
    (["sweep", D, "--grid", "{bad_yaml}"], "bad.yaml"),  # #T
    (["sweep", D, "--grid", "{deep_yaml}"], "nested too deeply"),  # #T
    (["sweep", D, "--grid", "{list_yaml}"], "mapping"),
    (["sweep", D, "--grid", "{fifo}"], "--grid"),
    (["sweep", D, "--grid", "{list_yaml}", "--random", "0"], "--random"),
    (["sweep", D, "--grid", "{list_yaml}", "--holdout", "1.5"], "--holdout"),
    (["sweep", D, "--grid", "{list_yaml}", "--holdout", "nan"], "--holdout"),
    (["sweep", D, "--grid", "{list_yaml}", "--top", "0"], "--top"),
    (["sweep", D, "--grid", "{list_yaml}", "--seed", "-1"], "--seed"),
    (["sweep", D, "--grid", "{list_yaml}", "--measure", ""], "--measure"),
    # ---- dream check / run (items 2, 3, 10)
    (["dream", "check", "{missing}"], "does not exist"),
    (["dream", "check", R, "--workspace", "/etc"], "--workspace"),
    (["dream", "check", R, "--workspace", "linked-9999zzzz"], "symbolic link"),
    (["dream", "check", R, "--workspace", "{ws}", "--now", "nan"], "--now"),
    (["dream", "check", R, "--workspace", "{ws}", "--profile", "nope"], "nope"),
    (["dream", "check", R, "--workspace", "{ws}", "--config", "{bad_yaml}"], "bad.yaml"),
    (["dream", "check", R, "--workspace", "{ws}", "--config", "{deep_yaml}"], "nested"),
    (["dream", "check", R, "--workspace", "{ws}", "--set", "min_hours"], "KEY=VALUE"),
    (["dream", "check", R, "--workspace", "{ws}", "--set", "min_hours=-1"], "min_hours"),
    (["dream", "run", R, "--workspace", "{ws}", "--consolidator", ":"], "module:function"),  # #T
    (["dream", "run", R, "--workspace", "{ws}", "--consolidator", "no.such:fn"], "no.such"),
    (["dream", "run", R, "--workspace", "{ws}", "--consolidator", "os:sep"], "not callable"),
    (["dream", "run", R, "--workspace", "{ws}", "--consolidator", "gpt"], "gpt"),
    (["dream", "run", R, "--workspace", "{ws}", "--yes", "--out", "{base}/o"], "--out"),
    (["dream", "run", R, "--workspace", "{ws}", "--out", R], "--out"),
    (["dream", "run", R, "--workspace", "{ws}", "--out", "{root}/{ws}"], "--out"),
    (["dream", "run", R, "--workspace", "{ws}", "--keep-backups", "0"], "--keep-backups"),
    # ---- dream simulate (item 10: --users bounded by memory)
    (["dream", "simulate", "--events", "{missing}"], "--events"),  # #T
    (["dream", "simulate", "--events", "{dir}"], "--events"),
    (["dream", "simulate", "--events", "{fifo}"], "--events"),
    (["dream", "simulate", "--events", "{csv_cols}"], "column"),
    (["dream", "simulate", "--events", "{csv_back}"], "ends before it starts"),
    (["dream", "simulate", "--days", "inf"], "--days"),  # #T
    (["dream", "simulate", "--days", "nan"], "--days"),
    (["dream", "simulate", "--days", "0"], "--days"),
    (["dream", "simulate", "--days", "-2"], "--days"),
    (["dream", "simulate", "--users", "0"], "--users"),
    (["dream", "simulate", "--users", "many"], "--users"),
    (["dream", "simulate", "--users", "999999999", "--days", "365"], "--users"),
    (["dream", "simulate", "--sim", "sessions_per_dy=3"], "sessions_per_dy"),
    (["dream", "simulate", "--sim", "sessions_per_day=-1"], "sessions_per_day"),
    (["dream", "simulate", "--sweep", "min_hours"], "--sweep"),
    (["dream", "simulate", "--max-freshness-hours", "24"], "--sweep"),
    (
        ["dream", "simulate", "--max-freshness-hours", "0", "--sweep", "min_hours=1"],
        "--max-freshness-hours",
    ),
    (["dream", "simulate", "--config", "{deep_yaml}"], "nested too deeply"),  # #T
    (["dream", "simulate", "--config", "{list_yaml}"], "mapping"),
    # ---- report / lab (item 10)
    (["report", "--datasets", ""], "--datasets"),  # #0
    (["report", "--notebooks", "bogus"], "bogus"),
    (["report", "--notebooks", ""], "--notebooks"),
    (["report", "--param", "nope"], "NAME=VALUE"),
    (["report", "--param", "x=[[[[[[[[[[[[[["], "x"),
    (["report", "--baseline", "{missing}"], "not found"),
    (["report", "--baseline", "{deep_json}"], "nested too deeply"),
    (["report", "--start-timeout", "0"], "--start-timeout"),
    (["report", "--cell-timeout", "nan"], "--cell-timeout"),
    (["lab", "--port", "0"], "--port"),
    (["lab", "--port", "70000"], "--port"),
    (["lab", "--notebook-dir", "{missing}"], "memlab lab opens DIR/notebooks; pass the folder"),
    (["lab", "--ServerApp.root_dir=/"], "memlab lab opens DIR/notebooks"),
    (["report", "-f", "{missing}"], "-f"),
    (["report", "-f", "{deep_yaml}"], "nested too deeply"),
    (["report", "--notebook-dir", "{missing}"], "--notebook-dir"),
    (["report", "--jobs", "0"], "--jobs"),
    (["init", "{file}"], "exists and is not a folder"),
    # ---- config export (issue 25)
    (["config", "export"], "--out"),
    (["config", "export", "--out", "{file}"], "exists and is not a folder"),
    (["config", "export", "--out", "{dir}/x", "--profile", "nope"], "nope"),
    (["config", "export", "--out", "{dir}/x", "--chunk-bytes", "0"], "max_bytes"),
    (["config", "export", "--out", "{dir}/x", "--set", "bogus=1"], "bogus"),
    (["config", "export", "--out", "{dir}/x", "--config", "{missing}"], "not found"),
    (["config", "export", "--out", "{dir}/x", "--tokenizer", "bogus"], "--tokenizer"),
    (["bogus-command"], "bogus-command"),
]


def _id(case: tuple[list[str], str]) -> str:
    return " ".join(a.replace("{", "").replace("}", "") for a in case[0])[:70]


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_bad_input_is_one_line_exit_2(
    case: tuple[list[str], str], zoo: Zoo, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, fragment = case
    base = Path(zoo.paths["base"])
    before = digest_tree(base)
    code = main(zoo.fill(argv))
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("memlab: error: "), err
    assert "Traceback" not in err and "a memlab bug" not in err, err
    assert zoo.fill([fragment])[0] in lines[0], err
    assert digest_tree(base) == before  # nothing lost, nothing converted
    assert not (Path(zoo.paths["root"]) / "proj-1234abcd" / "index.sqlite").exists()


def test_the_readme_counts_these_cases() -> None:
    assert docs_say("guarantees.md", f"{len(CASES)} bad-input cases across every subcommand")


def test_the_table_covers_every_subcommand() -> None:
    from memlab.cli import build_parser

    parser = build_parser()
    commands = set()
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        for name, sub in action.choices.items():
            nested = [a for a in sub._actions if a.__class__.__name__ == "_SubParsersAction"]
            commands |= {f"{name} {n}" for a in nested for n in a.choices} or {name}
    nested_commands = ("agents", "config", "dataset", "dream")
    covered = {" ".join(argv[:2]) if argv[0] in nested_commands else argv[0]
               for argv, _ in CASES}  # fmt: skip
    assert commands - covered == set()


def test_a_real_process_prints_one_line_and_no_traceback(zoo: Zoo) -> None:
    """The same guarantee end to end: a strict UTF-8 locale, bytes that are not UTF-8 in
    argv, logging configured by ``main`` (not by pytest)."""
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"}
    root = zoo.paths["root"].encode()
    for argv in (
        [b"search", root, b"caf\xe9", b"--workspace", b"proj-1234abcd", b"--json"],
        [b"search", root, b"x", b"--workspace", b"proj-1234abcd", b"--max-results", b"9" * 20],
        [b"dream", b"simulate", b"--events", b"/no/such.csv"],
        [b"index", root, b"--workspace", b"proj-1234abcd", b"--index", b"/dev/null"],
    ):
        proc = subprocess.run(
            [sys.executable.encode(), b"-m", b"memlab", *argv], capture_output=True, env=env
        )
        err = proc.stderr.decode("utf-8", "replace")
        assert proc.returncode == 2 and b"Traceback" not in proc.stderr, err
        assert err.count("\n") == 1 and err.startswith("memlab: error: "), err
