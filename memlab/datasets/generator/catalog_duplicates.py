"""A problem noted again and again (near-duplicates) hides the one note with its fix."""
# ruff: noqa: E501

from __future__ import annotations

import random

from memlab.datasets.generator.spec import Catalog, Note, QuerySpec

# (key, problem (noted 3-4 times), fix (noted once), query, answer term of the fix, paraphrase or "")
# fmt: off
DUPLICATES: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("D01", "The webhooks integration test fails intermittently because it depends on wall-clock time.", "Fixed the flaky webhooks integration test by injecting `FakeClock` from test/utils.", "how did we fix the intermittent webhooks integration test failure", "FakeClock", "what cured the unreliable callback test"),
    ("D02", "Staging database credentials rotate every 30 days and services start failing authentication.", "After a staging credential rotation, restart the pgbouncer pods; the services reconnect cleanly.", "what to do when staging database credentials rotate and services fail authentication", "pgbouncer", ""),
    ("D03", "The billing invoice PDF renders blank pages for invoices with more than 40 line items.", "Blank invoice pages came from a fixed page height in the PDF template; switched to auto height in `invoice.hbs`.", "why do invoice PDFs render blank pages and what fixed it", "invoice.hbs", ""),
    ("D04", "Docker builds for the gateway take over ten minutes on CI because the layer cache is cold.", "Enabled the BuildKit registry cache (`--cache-to type=registry`) so gateway builds reuse layers across CI runs.", "how can we speed up slow gateway docker builds on CI", "BuildKit registry cache", ""),
    ("D05", "Ledger migration 0087 locks the entries table for minutes on large datasets.", "Rewrote migration 0087 to create the index CONCURRENTLY, which avoids the table lock.", "ledger migration 0087 locks the entries table, how to avoid it", "CONCURRENTLY", ""),
    ("D06", "The notifier sends duplicate SMS when the provider times out.", "Deduplicate SMS by storing the provider message id before retrying (see `smsOutbox`).", "stop the notifier from sending duplicate SMS on provider timeouts", "smsOutbox", ""),
    ("D07", "The Playwright end-to-end suite is slow: 25 minutes on CI.", "Sharded the Playwright suite across 4 CI jobs (`--shard=i/4`); it now takes 7 minutes.", "how to make the slow playwright end-to-end suite faster on CI", "--shard=i/4", ""),
    ("D08", "Memory of the reports service grows until the pod is OOM-killed during month-end exports.", "The reports memory leak was an unbounded in-memory cache of rendered rows; exports now stream rows to S3.", "reports service OOM during month-end exports: what is the root cause", "unbounded in-memory cache", "why do report exports blow up memory at the end of the month"),
    ("D09", "`pnpm install` on CI sometimes fails with ERR_PNPM_META_FETCH_FAIL from the registry.", "Pinned the CI registry to our Verdaccio mirror, which stopped the ERR_PNPM_META_FETCH_FAIL failures.", "fix for ERR_PNPM_META_FETCH_FAIL when installing on CI", "Verdaccio", ""),
    ("D10", "Fraud scoring latency spikes above 800 ms every hour on the hour.", "The hourly fraud latency spikes were the model reload cron; the model now reloads in a background worker.", "why does fraud scoring latency spike every hour", "model reload cron", ""),
    ("D11", "The daily digest email goes out at the wrong hour for merchants outside Europe.", "Digest emails now use the merchant `timezone` column; merchants without one fall back to Europe/Berlin.", "daily digest email sent at the wrong hour for merchants", "merchant `timezone` column", ""),
    ("D12", "Type-checking the whole TypeScript monorepo takes over 4 minutes.", "Turned on TypeScript project references with `tsc --build`, so only changed packages are re-checked.", "speed up the slow typescript type-check of the monorepo", "tsc --build", ""),
    ("D13", "`make dev` fails on Apple Silicon because the fraud image is amd64 only.", "Published a multi-arch fraud image (linux/arm64 and linux/amd64) so `make dev` works on Apple Silicon.", "make dev fails on Apple Silicon because of the fraud image", "multi-arch", ""),
    ("D14", "Gateway p99 latency doubles for about five minutes after each deploy.", "Gateway p99 after deploys was cold connection pools; a readiness warm-up now opens them before traffic.", "gateway p99 latency doubles after deploys, what is the fix", "readiness warm-up", ""),
    ("D15", "The acme partner webhook endpoint returns 410 Gone for old event types.", "Acme only accepts v2 event types; the partner adapter maps old ones with `acmeV2Map`.", "acme partner webhook returns 410 Gone", "acmeV2Map", ""),
)
# fmt: on

WRAPPERS = (
    "{P}",
    "Seen again: {p}",
    "{P_open} (still happening).",
    "Note to self: {p}",
)


def _copies(problem: str, n: int, rng: random.Random) -> list[str]:
    lowered = problem[0].lower() + problem[1:] if not problem.startswith("`") else problem
    forms = [w.format(P=problem, p=lowered, P_open=problem.rstrip(".")) for w in WRAPPERS]
    return [forms[0], *rng.sample(forms[1:], n - 1)]


def build(rng: random.Random) -> Catalog:
    cat = Catalog()
    for key, problem, fix, query, term, paraphrase in DUPLICATES:
        n = rng.randint(3, 4)
        copies = [f"{key}.p{i + 1}" for i in range(n)]
        for ckey, text in zip(copies, _copies(problem, n, rng), strict=True):
            cat.notes.append(Note(ckey, text, section="Gotchas", family=key))
        cat.notes.append(
            Note(f"{key}.fix", fix, section="Decisions", window=(0.25, 0.8), family=key)
        )
        targets = ((f"{key}.fix", 2), *((c, 1) for c in copies))
        cat.queries.append(
            QuerySpec(query, "duplicates", targets, tags=(f"copies-{n}",), answer_terms=(term,))
        )
        if paraphrase:
            cat.queries.append(
                QuerySpec(
                    paraphrase, "paraphrase", targets, tags=("of-duplicates",), answer_terms=(term,)
                )
            )
    return cat
