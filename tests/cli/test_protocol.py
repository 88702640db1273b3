"""``memlab compare|eval DATASET --protocol NAME [--published FILE]``: the papers' measures
on the papers' units and question sets; references beside memlab's runs; bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from memlab.cli import main
from memlab.datasets.importers import import_dataset
from tests.datasets.conftest import FIXTURES


@pytest.fixture(scope="module")
def locomo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("cli-protocol") / "locomo"
    import_dataset("locomo", FIXTURES / "locomo_mini.json", dest)
    return dest


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_compare_prints_the_papers_measures(
    locomo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refs = tmp_path / "refs.yaml"
    refs.write_text(
        "source: Maharana et al. 2024, Table 3\nunit: turn\nquestions: 1,986 questions\n"
        "references:\n  - system: DRAGON (dialog)\n    values: {R@5: 0.6, R@10: 0.7}\n"
        "  - system: DRAGON (dialog)\n    category: temporal\n    values: {R@5: 0.5}\n"
    )
    out = tmp_path / "out"
    code, text, err = _run(
        capsys,
        "compare",
        str(locomo),
        "--protocol",
        "locomo",
        "--runs",
        "fts,fts@grok-c0",
        "--quiet",
        "--published",
        str(refs),
        "--out",
        str(out),
        "--work",
        str(tmp_path / "w"),
    )
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0].startswith("protocol locomo: Maharana et al.")
    assert lines[1] == (  # no --chunking: the paper's unit, one turn per chunk
        "unit: turn (the source's ids); index porter one chunk per record, Dream off; "
        "one turn per chunk (the paper's unit)"
    )
    assert "adversarial included: 7 questions; scored 6 — not scored: 1 no evidence turn" in text
    header = next(line for line in lines if line.split()[:2] == ["run", "R@5"])
    assert header.split() == ["run", "R@5", "R@10", "R@25", "R@50", "NumQ"]
    assert "rankers on profile standard-ir" in text and "per category (mean, n):" in text
    assert "published (Maharana et al. 2024, Table 3) — memlab at unit turn, 6 scored" in text
    assert "DRAGON (dialog) published temporal" in " ".join(text.split())
    published = (out / "published.csv").read_text().splitlines()
    assert published[0] == "system,kind,category,R@5,R@10"
    assert "DRAGON (dialog),published,all,0.6,0.7" in published
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["unit"] == "locomo:turn" and manifest["protocol"]["questions"] == 7
    assert manifest["runs"]["fts"]["config"]["min_score"] == 0.0  # standard-ir
    assert manifest["runs"]["fts@grok-c0"]["config"]["min_score"] == 0.35


def test_eval_with_a_protocol_and_index_options(
    locomo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", str(locomo), "--protocol", "locomo", "--quiet", "--work", str(tmp_path)]
    code, text, err = _run(capsys, *argv, "--chunking", "record", "--profile", "grok-c0")
    assert code == 0, err
    assert "one chunk per record" in text and "one turn per chunk (the paper's unit)" in text
    assert "rankers on profile grok-c0" in text and "index unicode61" in text
    code, text, err = _run(capsys, *argv, "--chunking", "c0")  # the user's chunking
    assert code == 0, err
    assert "1600/320" in text and "chunk rankings aggregated to turns" in text
    code, text, err = _run(capsys, *argv, "--level", "session", "--roles", "Caroline", "--json")
    assert code == 0, err
    rows = json.loads(text)
    assert {r["measure"] for r in rows} >= {"R@5", "R@50", "NumQ"}


@pytest.mark.parametrize(
    ("extra", "refs", "fragment"),
    [
        ([], None, "--published needs --protocol"),
        (["--protocol", "locomo", "--unit", "file"], None, "--unit"),
        (["--protocol", "locomo", "--measures", "RR"], None, "--measures: unknown protocol"),
        (["--protocol", "locomo", "--measures", "R@0"], None, "write FAMILY@k with k ≥ 1"),
        (["--evidence", "turns"], None, "--evidence needs --protocol"),
        (["--protocol", "beir"], None, "memlab dataset import beir SRC DEST"),
        (["--protocol", "locomo", "--level", "default"], None, "judgement level 'default'"),
        (["--protocol", "locomo", "--chunking", "pages"], None, "--chunking"),
        (["--protocol", "locomo", "--roles", "**"], None, "roles"),
        (["--protocol", "locomo"], "unit: session\nreferences: []\n", "unit 'session'"),
        (["--protocol", "locomo"], "references: [{system: x, values: {R@5: 73.1}}]", "0.731"),
        (["--protocol", "locomo"], "references: [{system: x, values: {nDCG@10: 0.5}}]", "R@1"),
        (["--protocol", "locomo"], "references: [{system: x, valeus: {}}]", "values"),
        (["--protocol", "locomo"], "source: x\n", "'references' list"),
        (["--protocol", "locomo"], "colour: x\nreferences: []\n", "unknown key 'colour'"),
    ],
)
def test_bad_input_is_one_line(
    locomo: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    refs: str | None,
    fragment: str,
) -> None:
    argv = ["compare", str(locomo), "--runs", "fts", "--quiet", "--work", str(tmp_path), *extra]
    if refs is not None or not extra:
        file = tmp_path / "refs.yaml"
        file.write_text(refs or "references: []\n")
        argv += ["--published", str(file)]
    code, _, err = _run(capsys, *argv)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("memlab: error: "), err
    assert fragment in lines[0], err


def test_measures_and_the_paper_shaped_table(
    locomo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--measures chooses the protocol's measures shown; --table prints the paper's layout
    (systems × categories × measures, percentages for LoCoMo), --out writes it as .md/.tex."""
    refs = tmp_path / "refs.yaml"
    refs.write_text(
        "references:\n  - system: DRAGON\n    values: {R@5: 0.567}\n"
        "  - system: DRAGON\n    category: temporal\n    values: {R@5: 0.5}\n"
    )
    out = tmp_path / "out"
    argv = ["compare", str(locomo), "--protocol", "locomo", "--runs", "fts,fts@grok-c0"]
    argv += ["--measures", "R@1,R@5", "--table", "markdown", "--published", str(refs)]
    code, text, err = _run(capsys, *argv, "--quiet", "--out", str(out), "--work", str(tmp_path))
    assert code == 0, err
    lines = text.splitlines()
    assert next(line for line in lines if line.split()[:1] == ["run"]).split() == [
        "run",
        "R@1",
        "R@5",
        "NumQ",
    ]
    assert "values in percent, as the paper prints them" in text
    agg = pd.read_csv(out / "aggregated.csv").set_index(["run", "measure"])["value"]
    cats = pd.read_csv(out / "per_category.csv").set_index(["run", "category", "measure"])
    fts = next(line for line in lines if line.split()[:1] == ["fts"])
    assert fts.split()[1:3] == [f"{100 * agg[('fts', m)]:.1f}" for m in ("R@1", "R@5")]
    table = (out / "table.md").read_text().splitlines()
    assert table == [line for line in lines if line.startswith("|")]  # printed = written
    head = [c.strip() for c in table[0].strip("|").split("|")]
    assert head[:3] == ["system", "R@1", "R@5"] and "temporal R@5" in head
    rows = {r[0]: r for r in ([c.strip() for c in t.strip("|").split("|")] for t in table[2:])}
    assert list(rows) == ["fts", "fts@grok-c0", "DRAGON"]
    assert rows["DRAGON"][2] == "56.7" and rows["DRAGON"][1] == ""
    assert rows["DRAGON"][head.index("temporal R@5")] == "50.0"
    for col, name in enumerate(head[1:], start=1):
        category, measure = name.split() if " " in name else ("all", name)
        value = (
            agg[("fts", measure)]
            if category == "all"
            else cats.loc[("fts", category, measure), "mean"]
        )
        assert rows["fts"][col] == f"{100 * value:.1f}"
    tex = (out / "table.tex").read_text()
    assert "\\multicolumn{2}{c}{all}" in tex and "DRAGON & " in tex
