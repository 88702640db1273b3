"""``memlab dataset`` commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.cli import main
from tests.datasets.conftest import FIXTURES


def test_validate_info_digest(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dataset", "validate", str(tiny)]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
    assert main(["dataset", "info", str(tiny)]) == 0
    out = capsys.readouterr().out
    assert (
        "name:        tiny" in out
        and "queries:     3 (1 abstention)" in out
        and "level default" in out
    )
    with (tiny / "memory" / "MEMORY.md").open("a") as f:
        f.write("- Also: tabs, not spaces.\n")
    assert main(["dataset", "validate", str(tiny)]) == 1
    assert "digest_mismatch=1" in capsys.readouterr().out
    assert main(["dataset", "info", str(tiny)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memlab: error: dataset") and "memlab dataset digest" in err
    assert main(["dataset", "digest", str(tiny), "--write"]) == 0
    capsys.readouterr()
    assert main(["dataset", "validate", str(tiny)]) == 0


def test_import_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "loco"
    assert main(["dataset", "import", "locomo", str(FIXTURES / "locomo_mini.json"), str(dest)]) == 0
    out = capsys.readouterr().out
    assert "questions: 7" in out and "read as 'D2:3'" in out
    assert main(["dataset", "import", "locomo", str(FIXTURES / "locomo_mini.json"), str(dest)]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["dataset", "import", "trec", str(FIXTURES), str(tmp_path / "t")]) == 2
    assert "unknown importer 'trec'" in capsys.readouterr().err
    assert main(["dataset", "import", "beir", str(tmp_path / "nope"), str(tmp_path / "b")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_generate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dataset", "generate", str(tmp_path / "am"), "--seed", "5"]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
    assert main(["dataset", "generate", str(tmp_path / "am"), "--seed", "5", "--force"]) == 0
