"""Every benchmark, at a size that finishes in a few minutes here, as one table.

    python -m benchmarks [--json FILE] [--markdown FILE]      (or: make bench)

Each row is one figure: what memlab takes, the anchor it is measured against
(raw SQLite doing the same work, the reference it replaced, or nothing), their
ratio, the goal and whether it is met. Everything runs in this one process or in
fresh processes it starts; the load average is printed before and after, since
the machines are shared and timings move with it. The table is the one
docs/benchmarks.md keeps (``--markdown`` writes it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the bench_* modules

import bench_beir
import bench_cli
import bench_dream_simulate
import bench_engine
import bench_first_metric
import bench_sweep
import bench_vectors

from memlab.search.degraded import aggregated


@dataclass
class Row:
    figure: str
    memlab: str
    anchor: str
    ratio: str
    goal: str
    met: bool | None


def _engine(chunks: int, queries: int, vectors: bool) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="memlab-bench-"))
    try:
        args = argparse.Namespace(chunks=chunks, queries=queries, vectors=vectors, dims=384)
        return bench_engine.run(work, args, model=False)
    finally:
        import shutil

        shutil.rmtree(work, ignore_errors=True)


def engine_rows() -> list[Row]:
    fts = _engine(100_000, 100, vectors=False)
    vec = _engine(10_000, 100, vectors=True)
    s, i, iv, h = fts["fts_search"], fts["ingest"], vec["ingest_with_vectors"], vec["hybrid_search"]
    return [
        Row("FTS-only search p50, 100k chunks", f"{s['memlab']['p50_ms']:.2f} ms",
            f"{s['raw']['p50_ms']:.2f} ms raw FTS5", f"{s['p50_ratio']:.2f}×", "≤ 1.2×",
            s["p50_ratio"] <= 1.2),
        Row("FTS-only search p95, 100k chunks", f"{s['memlab']['p95_ms']:.2f} ms",
            f"{s['raw']['p95_ms']:.2f} ms raw FTS5", f"{s['p95_ratio']:.2f}×", "≤ 1.2×",
            s["p95_ratio"] <= 1.2),
        Row("hybrid search p50, 10k chunks × 384 d", f"{h['memlab']['p50_ms']:.2f} ms",
            f"{h['raw_sum']['p50_ms']:.2f} ms raw FTS5 + vec0 KNN",
            f"{h['p50_ratio_over_raw_sum']:.2f}×", "≤ 1.2×", h["p50_ratio_over_raw_sum"] <= 1.2),
        Row("ingest, 100k chunks", f"{i['memlab_chunks_per_s']:,.0f} chunks/s",
            f"{i['raw_chunks_per_s']:,.0f} raw FTS5 inserts", f"{i['ratio_memlab_over_raw']:.2f}×",
            "≥ 0.8×", i["ratio_memlab_over_raw"] >= 0.8),
        Row("ingest with vectors, 10k chunks", f"{iv['memlab_chunks_per_s']:,.0f} chunks/s",
            f"{iv['raw_chunks_per_s']:,.0f} raw FTS5 + vec0 inserts",
            f"{iv['ratio_memlab_over_raw']:.2f}×", "≥ 0.8×", iv["ratio_memlab_over_raw"] >= 0.8),
    ]  # fmt: skip


def _sweep(configs: int, queries: int | None, naive: int) -> dict[str, Any]:
    args = argparse.Namespace(dataset=str(bench_sweep.DATASET), configs=configs, seed=0,
                              naive_sample=naive, queries=queries)  # fmt: skip
    return bench_sweep.throughput(args)


def sweep_rows() -> list[Row]:
    rows = []
    for queries, where, limit in (
        (500, "synthetic timeline", 10.0),
        (None, "shipped dataset", None),
    ):
        r = _sweep(10_000, queries, naive=3)
        same = bool(r.get("identical_hits")) and bool(r.get("identical_measures"))
        fast = limit is None or r["seconds"] < limit
        goal = ("< 10 s, " if limit else "") + "hits identical to search()"
        check = f"hits of {r['configs_checked']} configurations vs search(): "
        rows.append(
            Row(
                f"sweep, 10,000 configurations × {r['queries']} queries ({where})",
                f"{r['seconds']:.1f} s ({r['configs_per_s']:,.0f}/s)",
                check + ("identical" if same else "DIFFERENT"),
                "—",
                goal,
                fast and same,
            )
        )
    return rows  # fmt: skip


def _spread(t: dict[str, float]) -> str:
    return f"{t['cpu_s']:.2f} s ({t['cpu_min_s']:.2f}–{t['cpu_max_s']:.2f})"


def startup_rows() -> list[Row]:
    first = bench_first_metric.measure()
    cli = bench_cli.measure()
    m, r = first["memlab_first_metric_s"], first["ranx_first_metrics_s"]
    assert isinstance(m, float) and isinstance(r, float)
    return [
        Row("first metric in a fresh process (warm caches)", f"{m:.2f} s",
            f"{r:.2f} s ranx (warm)", f"{m / r:.2f}×", "≤ 2 s", m <= 2.0),
        Row("`memlab --help`, CPU, no .pyc files (median of 5)",
            _spread(cli["help_no_pyc"]), f"{cli['python']['cpu_s']:.2f} s bare python",
            "—", "≤ 0.5 s CPU", cli["help_no_pyc"]["cpu_s"] <= 0.5),
        Row("`memlab search` (indexed), CPU (median of 5)", _spread(cli["search"]), "—", "—",
            "< 1 s", cli["search"]["cpu_s"] < 1.0),
    ]  # fmt: skip


def eval_rows() -> list[Row]:
    beir = bench_beir.measure(bench_beir.DOCS, bench_beir.QUERIES)
    vec = bench_vectors.measure(20_000, 300)
    raw, cli = beir["raw_fts5_script_s"], beir["memlab_eval_cli_s"]
    ratio = vec["ratio_batch_over_vec0"]
    assert isinstance(ratio, float)
    return [
        Row("`memlab eval`, BEIR-size (5,183 docs, 300 queries), FTS-only, end to end",
            f"{cli:.2f} s (median of {beir['repeat']})",
            f"{raw:.2f} s raw FTS5 script (median of {beir['repeat']})", f"{cli / raw:.2f}×",
            "≤ 1.5×",
            cli / raw <= 1.5),
        Row("vector candidates, 300 queries × 20k chunks (evaluation)",
            f"{vec['batch_s']:.2f} s batch", f"{vec['vec0_s']:.2f} s vec0 per query",
            f"{ratio:.2f}×", "faster, identical", ratio < 1 and bool(vec["identical"])),
    ]  # fmt: skip


def dream_rows() -> list[Row]:
    d = bench_dream_simulate.measure(10_000, 90.0, profiles=("grok-c0",))
    every, one, load = d["grok-c0/all_cores"], d["grok-c0/one_core"], d["engine_load_fresh"]
    # importing the simulator with numba and loading its compiled engine in a fresh process
    # (numpy and pandas imported) is counted in the figure: a `memlab dream simulate` pays it
    total = load["wall_s"] + every["wall_s"]
    return [
        Row("Dream simulation, 10,000 users × 90 days (from scratch)",
            f"{total:.2f} s ({load['wall_s']:.2f} s numba and engine load + "
            f"{every['wall_s']:.2f} s; "
            f"{load['cpu_s'] + every['cpu_s']:.2f} s CPU)",
            f"{one['wall_s']:.2f} s on one core", f"{every['wall_s'] / one['wall_s']:.2f}×",
            "< 3 s", total < 3.0),
    ]  # fmt: skip


PARTS: list[tuple[str, Callable[[], list[Row]]]] = [
    ("engine", engine_rows),
    ("sweep", sweep_rows),
    ("start-up", startup_rows),
    ("evaluation", eval_rows),
    ("dream", dream_rows),
]


def markdown(rows: list[Row], load: tuple[float, float], seconds: float) -> str:
    lines = [
        "| figure | memlab | anchor | ratio | goal | met |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        met = "—" if r.met is None else ("yes" if r.met else "**no**")
        lines.append(f"| {r.figure} | {r.memlab} | {r.anchor} | {r.ratio} | {r.goal} | {met} |")
    lines.append("")
    lines.append(
        f"Measured in one run of `python -m benchmarks` ({seconds / 60:.1f} min) on "
        f"{os.cpu_count()} cores, load average {load[0]:.1f} before and {load[1]:.1f} after."
    )
    return "\n".join(lines)


def compile_bytecode() -> int:
    """Compile memlab's modules before timing anything: the start-up rows time a warm
    install, which has its ``.pyc`` files (pip writes them when it installs), also where
    ``PYTHONDONTWRITEBYTECODE`` is set; without them every fresh process would
    recompile memlab (≈ 0.1 s) but not the raw scripts' few modules. Returns the
    number of modules compiled now (0 when all were current)."""
    import compileall
    import io
    from contextlib import redirect_stdout

    import memlab

    out = io.StringIO()
    with redirect_stdout(out):
        compileall.compile_dir(Path(memlab.__file__).parent, quiet=0)
    return out.getvalue().count("Compiling")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, help="also write the rows as JSON")
    ap.add_argument("--markdown", type=Path, help="also write the table as Markdown")
    ap.add_argument("--only", action="append", choices=[p for p, _ in PARTS],
                    help="run only these parts")  # fmt: skip
    args = ap.parse_args()
    compiled = compile_bytecode()
    print(f"[bytecode: {compiled} memlab modules compiled]", file=sys.stderr, flush=True)
    before, start = os.getloadavg()[0], time.perf_counter()
    rows: list[Row] = []
    for name, part in PARTS:
        if args.only and name not in args.only:
            continue
        t = time.perf_counter()
        with aggregated():  # degraded searches: one line per kind of reason, not per query
            rows += part()
        print(f"[{name}: {time.perf_counter() - t:.0f} s]", file=sys.stderr, flush=True)
    table = markdown(rows, (before, os.getloadavg()[0]), time.perf_counter() - start)
    print(table)
    if args.markdown:
        args.markdown.write_text(table + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in rows], indent=2) + "\n")


if __name__ == "__main__":
    main()
