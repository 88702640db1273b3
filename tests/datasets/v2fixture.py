"""A small format-2 dataset written with ``DatasetWriter``: two workspaces sharing one
root, growing session logs, a rewrite, an append, a deletion, fact labels and nuggets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memlab.datasets import DatasetWriter
from memlab.timefmt import parse_iso

T0 = parse_iso("2026-03-01T09:00:00Z")
DAY = 86400.0
HOUR = 3600.0
LOG_A1 = "ws-a/sessions/2026-03-02-deploy-aaaa0001.md"
LOG_A2 = "ws-a/sessions/2026-03-04-cache-aaaa0002.md"
LOG_A3 = "ws-a/sessions/2026-03-06-billing-aaaa0003.md"
LOG_B1 = "ws-b/sessions/2026-03-03-mobile-bbbb0001.md"

LOG_A1_PART1 = "# Deploy\n\n- Deploy target: staging cluster kappa\n"
LOG_A1_PART2 = "- Rollback: helm rollback with the previous chart\n"


def write_timeline_mini(dest: Path, **writer_kwargs: Any) -> Path:
    """Group ``a`` (ws-a) and ``b`` (ws-b) share ``memory/`` and its global MEMORY.md."""
    w = DatasetWriter(
        dest,
        name="timeline-mini",
        licence="CC0-1.0",
        origin="tests",
        as_of=T0 + 30 * DAY,
        grouped=True,
        format_version=2,
        index={"tokenizer": "unicode61"},
        timeline={"dream": False},
        **writer_kwargs,
    )
    w.add_group("a", workspace="ws-a", root="memory")
    w.add_group("b", workspace="ws-b", root="memory")
    w.add_file("MEMORY.md", "# Global\n\n- Editor: helix with the default keymap\n", T0, group="a")
    w.add_event(
        "ws-a/MEMORY.md", T0, group="a", content="# Project A\n\n- Database: PostgreSQL 16\n"
    )
    w.add_file(
        "ws-a/MEMORY.md",
        "# Project A\n\n- Database: MySQL 8 since the migration\n",
        None,
        group="a",
    )
    # a growing log: two prefixes, then the whole file; its session ends at the last write
    w.add_file(LOG_A1, LOG_A1_PART1 + LOG_A1_PART2, None, group="a")
    w.add_event(LOG_A1, T0 + DAY, group="a", nbytes=len(LOG_A1_PART1.encode()))
    w.add_event(LOG_A1, T0 + DAY + 2 * HOUR, group="a")
    w.add_event("ws-a/MEMORY.md", T0 + 5 * DAY, group="a")  # the rewrite: MySQL
    w.add_file(
        LOG_A2, "# Cache\n\n- Redis keys expire after 300 seconds\n", T0 + 3 * DAY, group="a"
    )
    w.add_event(LOG_A2, T0 + 3 * DAY + HOUR, group="a", append="- Redis runs on port 6379\n")
    w.add_event(LOG_A2, T0 + 8 * DAY, group="a", delete=True)
    w.add_file(LOG_A3, "# Billing\n\n- Invoices are sent on the 1st\n", T0 + 6 * DAY, group="a")
    w.add_file("ws-b/MEMORY.md", "# Project B\n\n- Mobile app uses Flutter 3\n", T0, group="b")
    w.add_file(LOG_B1, "# Mobile\n\n- iOS builds run on the mac mini\n", T0 + 2 * DAY, group="b")
    w.add_fact("f-kappa", LOG_A1, "staging cluster kappa", group="a")
    w.add_fact("f-rollback", LOG_A1, "helm rollback with the previous chart", group="a")
    w.add_fact("f-pg", "ws-a/MEMORY.md", "PostgreSQL 16", group="a")
    w.add_fact("f-mysql", "ws-a/MEMORY.md", "MySQL 8", group="a")
    w.add_fact("f-redis-port", LOG_A2, "port 6379", group="a")
    w.add_fact("f-editor", "MEMORY.md", "helix with the default keymap")
    queries = [
        ("q-deploy", "a", "where do we deploy staging", T0 + DAY + HOUR, "fact:f-kappa"),
        ("q-rollback", "a", "how do we rollback the helm chart", T0 + 2 * DAY, "fact:f-rollback"),
        ("q-db-old", "a", "which database do we use", T0 + 2 * DAY, "fact:f-pg"),
        ("q-db-new", "a", "which database do we use now", T0 + 6 * DAY, "fact:f-mysql"),
        ("q-redis", "a", "redis port", T0 + 4 * DAY, "fact:f-redis-port"),
        ("q-editor-b", "b", "which editor keymap", T0 + 3 * DAY, "fact:f-editor"),
        ("q-ios", "b", "where do iOS builds run", T0 + 20 * DAY, f"{LOG_B1}#L3"),
    ]
    for qid, group, text, as_of, target in queries:
        w.add_query(qid, text, group=group, as_of=as_of, category="fact")
        w.judge(qid, target, 2)
    w.add_query("q-stack", "deploy and rollback", group="a", as_of=T0 + 3 * DAY, category="multi")
    w.judge("q-stack", "fact:f-kappa", 2, nugget=1)
    w.judge("q-stack", "fact:f-rollback", 2, nugget=2)
    w.add_query("q-none", "kubernetes operator", group="b", as_of=T0 + 9 * DAY, abstention=True)
    return w.finish()
