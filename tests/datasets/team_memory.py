"""A small real-looking team memory: two workspaces, file times set as mtimes, junk an
index would ignore and (optionally) a link out of the root; and its queries."""

from __future__ import annotations

import json
import os
from pathlib import Path

from memlab.timefmt import parse_iso

SHOP = "shop-api-3f2a9c1d"
BILLING = "billing-9c8b7a6d"
FILES = {
    "MEMORY.md": (
        "2026-01-02T09:00:00Z",
        "# Preferences\n\n- Run the test suite with `pytest -q` before committing.\n",
    ),
    f"{SHOP}/MEMORY.md": (
        "2026-01-03T09:00:00Z",
        "# shop-api\n\n- The API server listens on port 8080.\n- CI runs on GitHub Actions.\n",
    ),
    f"{SHOP}/sessions/2026-03-01-ci-setup-aaaa1111.md": (
        "2026-03-01T17:00:00Z",
        "# CI setup\n\nCI uses Node 18 for the frontend build.\n\n## Notes\n\n"
        "The test job runs against a Postgres 15 service container.\n",
    ),
    f"{SHOP}/sessions/2026-03-10-node-upgrade-bbbb2222.md": (
        "2026-03-10T17:00:00Z",
        "# Node upgrade\n\nMoved CI to Node 22; Node 18 reached end of life.\n",
    ),
    f"{SHOP}/sessions/2026-03-12-redis-cccc3333.md": (
        "2026-03-12T17:00:00Z",
        "# Redis cache\n\nThe Redis cache expires keys after 15 minutes; it listens on 6379.\n",
    ),
    f"{BILLING}/MEMORY.md": (
        "2026-01-04T09:00:00Z",
        "# billing\n\n- Invoices are stored in Postgres, schema `billing`.\n",
    ),
    f"{BILLING}/sessions/2026-03-11-stripe-dddd4444.md": (
        "2026-03-11T17:00:00Z",
        "# Stripe webhooks\n\nStripe webhook retries back off for up to three days.\n",
    ),
}
QUERIES = [
    {"query_id": "q1", "text": "which Node version does CI use?", "group": SHOP},
    {"query_id": "q2", "text": "redis cache expiry", "group": SHOP},
    {"query_id": "q3", "text": "how long do stripe webhook retries last", "group": BILLING},
    {
        "query_id": "q4",
        "text": "which Node version did CI use in early March",
        "group": SHOP,
        "as_of": "2026-03-05T12:00:00Z",
    },
]


def write_team_memory(root: Path, outside: Path | None = None) -> Path:
    """The memory folder: files at their story times (mtimes), plus what a real folder
    holds besides (an index, a lock) and, with ``outside``, a link leading out of it."""
    for rel, (at, text) in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        t = parse_iso(at)
        os.utime(path, (t, t))
    (root / SHOP / "index.sqlite").write_bytes(b"SQLite format 3\x00")
    (root / SHOP / ".dream-lock").write_text("1234\n")
    if outside is not None:
        outside.mkdir(parents=True, exist_ok=True)
        (outside / "secret.md").write_text("# secret\n\nthe production password is hunter2\n")
        (root / SHOP / "sessions" / "2026-03-13-leak-eeee5555.md").symlink_to(outside / "secret.md")
    return root


def write_queries(path: Path) -> Path:
    path.write_text("".join(json.dumps(q) + "\n" for q in QUERIES), encoding="utf-8")
    return path


def write_old_sessions(root: Path, n: int = 24) -> None:
    """``n`` older session logs (February) on the same topics: a memory where c0's decay
    and a ranker without it return different things."""
    from memlab.timefmt import utc_seconds

    topics = ["Node CI pipeline cache", "redis cache expiry tuning", "CI Node matrix builds"]
    for i in range(n):
        topic = topics[i % len(topics)]
        path = root / SHOP / "sessions" / f"2026-02-{i + 1:02d}-old-{i:08d}.md"
        path.write_text(f"# Old notes {i}\n\nDiscussed {topic} again, session {i}.\n")
        t = utc_seconds(2026, 2, i + 1, 12)
        os.utime(path, (t, t))
