"""A sweep's results cannot be mistaken (issue 27, item 2): the manifest is written
before the results it describes, a ``sweep.csv`` without its ``sweep.json`` is never
resumed, writes are fsynced and atomic, temp files of a killed run are removed, and
the files' modes follow the umask like ``best.csv``."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from memlab.cli import main
from memlab.errors import ConfigError
from memlab.sweep import results_folder as files
from memlab.sweep.results_folder import MANIFEST_FILE, RESULTS_FILE, load_results, save_results
from tests.cli.test_sweep import GRID

MANIFEST = {"dataset": {"digest": "sha256:x"}, "index": {"tokenizer": "unicode61"}}
TABLE = pd.DataFrame({"config_hash": ["a1", "b2"], "nDCG@10": [0.5, 0.25]})


def test_results_without_their_manifest_are_refused_in_one_line(tmp_path: Path) -> None:
    save_results(tmp_path, TABLE, MANIFEST)
    assert len(load_results(tmp_path, MANIFEST)) == 2
    (tmp_path / MANIFEST_FILE).unlink()
    with pytest.raises(ConfigError) as info:
        load_results(tmp_path, MANIFEST)
    message = str(info.value)
    assert "\n" not in message and "no sweep.json" in message and "delete" in message


def test_the_manifest_is_on_disk_before_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault injection: the rename of the CSV fails. The manifest is already there, the
    CSV is not, and no temporary file is left."""
    real = os.replace

    def failing(src: str | Path, dst: str | Path) -> None:
        if Path(dst).name == RESULTS_FILE:
            raise OSError("disk full")
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", failing)
    with pytest.raises(OSError, match="disk full"):
        save_results(tmp_path, TABLE, MANIFEST)
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST_FILE]
    assert json.loads((tmp_path / MANIFEST_FILE).read_text()) == MANIFEST


def test_stale_temp_files_are_removed_by_the_next_run(tmp_path: Path) -> None:
    save_results(tmp_path, TABLE, MANIFEST)
    stale = [tmp_path / ".sweep.csv.tmp-123-abcd", tmp_path / ".sweep.json.tmp-9-ffff"]
    for path in stale:
        path.write_text("half a file")
    (tmp_path / ".sweep.csv.keep").write_text("not ours")
    assert len(load_results(tmp_path, MANIFEST)) == 2
    assert not any(p.exists() for p in stale) and (tmp_path / ".sweep.csv.keep").exists()


def test_modes_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        save_results(tmp_path, TABLE, MANIFEST)
        TABLE.to_csv(tmp_path / "best.csv", index=False)  # as the CLI writes it
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
    assert modes == {RESULTS_FILE: 0o644, MANIFEST_FILE: 0o644, "best.csv": 0o644}


def sweep_args(ds: Path, grid: Path, out: Path, work: Path, *extra: str) -> list[str]:
    return [
        *(str(ds), "--grid", str(grid), "--out", str(out), "--embedder", "hash"),
        *("--quiet", "--splits", "0", "--work", str(work), *extra),
    ]


def test_a_lost_manifest_is_not_resumed_under_other_settings(
    evalmini_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The finding: with sweep.json gone, a porter run "resumed" a unicode61 sweep."""
    grid = tmp_path / "grid.yaml"
    grid.write_text("half_life_days: [1, 30]\n")
    out, work = tmp_path / "out", tmp_path / "w"
    assert main(["sweep", *sweep_args(evalmini_path, grid, out, work)]) == 0
    (out / MANIFEST_FILE).unlink()
    before = (out / RESULTS_FILE).read_bytes()
    capsys.readouterr()
    code = main(["sweep", *sweep_args(evalmini_path, grid, out, work, "--tokenizer", "porter")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "no sweep.json" in err[0], err
    assert (out / RESULTS_FILE).read_bytes() == before


def _driver(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.sweep.kill_driver", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )


@pytest.mark.slow
def test_sigkill_campaign_loses_duplicates_and_mislabels_nothing(
    evalmini_path: Path, tmp_path: Path
) -> None:
    """SIGKILL ``memlab sweep`` (saving after every chunk) at random moments, resuming
    each time: after every kill a CSV on disk has its manifest, unique rows, and each
    row equals a clean run's; a run under other settings is refused; the finished
    folder equals a clean run's. ``MEMLAB_SWEEP_KILLS`` sets the number of kills."""
    kills = int(os.environ.get("MEMLAB_SWEEP_KILLS", "10"))
    rng = random.Random(27)
    grid = tmp_path / "grid.yaml"
    grid.write_text(GRID)
    env = {**os.environ, "MEMLAB_CACHE_DIR": str(tmp_path / "cache")}
    work = tmp_path / "w"
    clean_out, out = tmp_path / "clean", tmp_path / "out"
    started = time.monotonic()
    assert _driver(sweep_args(evalmini_path, grid, clean_out, work), env).wait(600) == 0
    duration = time.monotonic() - started
    clean = pd.read_csv(clean_out / RESULTS_FILE, dtype={"config_hash": str})
    clean = clean.set_index("config_hash")
    manifest = json.loads((clean_out / MANIFEST_FILE).read_text())
    other = {**manifest, "index": {**manifest["index"], "tokenizer": "porter"}}
    orphans = wrong_settings = bad_rows = 0
    for _ in range(kills):
        proc = _driver(sweep_args(evalmini_path, grid, out, work), env)
        time.sleep(rng.uniform(0.0, duration))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if not (out / RESULTS_FILE).exists():
            continue
        if not (out / MANIFEST_FILE).exists():
            orphans += 1
            continue
        try:
            load_results(out, other)
            wrong_settings += 1
        except ConfigError:
            pass
        rows = pd.read_csv(out / RESULTS_FILE, dtype={"config_hash": str})
        bad_rows += int(not rows["config_hash"].is_unique)
        got = rows.set_index("config_hash")
        bad_rows += int(not got.equals(clean.loc[got.index, got.columns]))
    assert _driver(sweep_args(evalmini_path, grid, out, work), env).wait(600) == 0
    final = pd.read_csv(out / RESULTS_FILE, dtype={"config_hash": str}).set_index("config_hash")
    assert (orphans, wrong_settings, bad_rows) == (0, 0, 0)
    assert final.sort_index().equals(clean.sort_index())
    assert not [p.name for p in out.iterdir() if ".tmp-" in p.name]
