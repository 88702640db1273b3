"""Plain lookups ("fact") and their paraphrased twins ("paraphrase")."""
# ruff: noqa: E501

from __future__ import annotations

import random

from memlab.datasets.generator.spec import SERVICES, Catalog, Note, QuerySpec

# (key, section, note text, query, answer term, paraphrased query or "")
# fmt: off
FACTS: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("F01", "Commands", "Regenerate the OpenAPI client with `pnpm run gen:client`; it writes to packages/api-client/src/generated.", "how do I regenerate the OpenAPI client", "gen:client", "rebuild the typed SDK from the API description"),
    ("F02", "Commands", "Seed the local database with demo fixtures using `make seed-demo` (about two minutes).", "command to seed the local database with demo fixtures", "seed-demo", ""),
    ("F03", "Gotchas", "When local migrations get out of sync, reset the Postgres volume with `docker compose down -v postgres`.", "local migrations out of sync, how do I reset the postgres volume", "down -v postgres", "my schema changes are in a weird state on my laptop, how do I wipe the db and start over"),
    ("F04", "Commands", "Run only the ledger unit tests with `pnpm --filter ledger test`.", "how to run only the ledger unit tests", "--filter ledger", ""),
    ("F05", "Commands", "Tail production logs of one service with `llctl logs <service> --follow --env prod`.", "how do I tail production logs for a service", "llctl logs", "watch what a live service is printing right now"),
    ("F06", "Commands", "Open a read-only psql shell on staging with `llctl db shell --env staging`.", "open a psql shell on the staging database", "llctl db shell", ""),
    ("F07", "Commands", "Replay a failed webhook delivery with `llctl webhooks replay <delivery-id>`.", "how to replay a failed webhook delivery", "webhooks replay", "resend a callback that a partner never received"),
    ("F08", "Commands", "Profile a slow gateway endpoint with `clinic flame -- node dist/gateway.js`.", "how to profile a slow endpoint in the gateway", "clinic flame", ""),
    ("F09", "Commands", "Bump package versions with `pnpm changeset version` before tagging a release.", "how are package versions bumped before a release", "changeset version", ""),
    ("F10", "Commands", "See pending database migrations with `pnpm db:status`.", "how do I list pending database migrations", "db:status", ""),
    ("F11", "Gotchas", "The fraud model file (300 MB) is fetched by `make fetch-model`; fraud tests skip scoring without it.", "fraud tests skip scoring because the model file is missing", "fetch-model", ""),
    ("F12", "Gotchas", "The reports service formats dates in the server locale unless `TZ=UTC` is set in its container.", "reports service prints dates in the wrong timezone", "TZ=UTC", "report timestamps come out in the wrong zone"),
    ("F13", "Gotchas", "Stripe test clocks expire after a month; recreate them with `scripts/stripe/reset-clocks.ts`.", "stripe test clocks expired, how to recreate them", "reset-clocks", ""),
    ("F14", "Gotchas", "The notifier drops emails silently when `SMTP_FROM` is not a verified sender domain.", "notifier emails disappear without any error", "verified sender domain", "outgoing mail vanishes and nothing is logged"),
    ("F15", "Gotchas", "Playwright end-to-end tests need `PLAYWRIGHT_BROWSERS_PATH=0` in CI or the browsers are not found.", "playwright cannot find browsers in CI", "PLAYWRIGHT_BROWSERS_PATH", ""),
    ("F16", "Gotchas", "Amounts above 2^53 lose precision in JSON numbers, so the API serialises amounts as strings.", "why are amounts strings in the API JSON", "2^53", "why do we send money values as text in responses"),
    ("F17", "Gotchas", "The scheduler ran jobs twice when two pods started in the same second; leader election now takes a Postgres advisory lock.", "scheduler jobs executed twice", "advisory lock", "a timed task fired two times at once"),
    ("F18", "Gotchas", "On macOS run `ulimit -n 10240` before `make dev`, or the gateway crashes with EMFILE.", "gateway crashes with EMFILE on macOS", "ulimit -n 10240", "too many open files when starting the stack on my mac"),
    ("F19", "Gotchas", "Rate-limit keys in Redis expire after 90 seconds, not 60: the sliding window needs the margin.", "how long do rate limit keys live in redis", "90 seconds", ""),
    ("F20", "Decisions", "Billing rounds tax half-to-even (banker's rounding) to match the accounting system.", "how does billing round tax amounts", "half-to-even", "what rounding rule applies to VAT on invoices"),
    ("F21", "Gotchas", "Webhook signatures are HMAC-SHA256 over the raw body; parsing the JSON before verifying breaks them.", "webhook signature verification fails", "raw body", "HMAC check keeps failing for incoming callbacks"),
    ("F22", "Gotchas", "`pnpm install` fails behind the office proxy unless `strict-ssl=false` is set in .npmrc; never commit that line.", "pnpm install fails behind the office proxy", "strict-ssl", ""),
    ("F23", "Notes", "The OpenAPI spec lives in `api/openapi.yaml`; the docs site rebuilds from it nightly.", "where is the openapi spec file", "api/openapi.yaml", ""),
    ("F24", "Decisions", "Idempotency records are kept for 72 hours, then purged by a nightly job.", "how long are idempotency records kept", "72 hours", "retention period for duplicate-request protection data"),
    ("F25", "Decisions", "Decided against GraphQL for the partner API; REST with cursor pagination stays.", "did we decide to use GraphQL for the partner API", "against GraphQL", ""),
    ("F26", "Decisions", "New primary keys use UUIDv7 so ids sort by creation time.", "which UUID version do new primary keys use", "UUIDv7", "what id format should new tables use"),
    ("F27", "Decisions", "Integration tests use Testcontainers instead of a shared test database.", "how do integration tests get a database", "Testcontainers", "do integration suites share one database"),
    ("F28", "Decisions", "Audit events go to a separate `audit` schema with insert-only grants.", "where are audit events stored", "insert-only", "where does the tamper-proof history of user actions live"),
    ("F29", "Decisions", "Currency conversion uses the ECB reference rates fetched at 16:00 CET; no intraday rates.", "which exchange rates does currency conversion use", "ECB", ""),
    ("F30", "Decisions", "The refund API returns 409 when a refund would exceed the captured amount.", "which status code when a refund exceeds the captured amount", "returns 409", "what error does someone get for refunding more than was charged"),
    ("F31", "Decisions", "The reconciler runs as a Kubernetes CronJob, not inside the scheduler service.", "how is the reconciler deployed in the cluster", "CronJob", ""),
    ("F32", "Decisions", "Personal data in logs is masked by the `redact()` helper in packages/logging; add new fields to its allowlist.", "how is personal data masked in logs", "redact()", "hiding customer details in log output"),
    ("F33", "Notes", "Partner sandbox accounts are prefixed `sbx_` and can never move real money.", "how are partner sandbox accounts recognised", "sbx_", ""),
    ("F34", "Notes", "The payouts design review is every second Tuesday with the platform team.", "when is the payouts design review", "second Tuesday", ""),
    ("F35", "Notes", "Load tests use k6 scripts in `perf/k6/`; the baseline is 400 requests per second at p95 under 250 ms.", "where are the load test scripts and what is the baseline", "perf/k6", ""),
    ("F36", "Notes", "The staging environment is torn down every night at 01:00 UTC, except on release days.", "when is the staging environment torn down", "torn down every night", "when is the pre-production environment destroyed"),
    ("F37", "Commands", "Roll out a feature flag gradually with `llctl flags set <flag> --percent N`.", "how to roll out a feature flag gradually", "llctl flags set", ""),
    ("F38", "Gotchas", "The `ledger_entries` table is partitioned by month; queries without a date range scan every partition.", "why are queries on ledger_entries slow", "partitioned by month", "why is my query on the entries table so slow without a time filter"),
    ("F39", "Notes", "The gateway's error budget is 99.9% monthly availability; burning half of it triggers a feature freeze.", "what is the gateway error budget", "99.9%", "what availability target does the public API have"),
    ("F40", "Gotchas", "Debugging a production container needs the `-debug` image variant; normal images have no shell.", "how do I get a shell in a production container", "`-debug` image", ""),
)
# fmt: on

OWNERS = ("Priya", "Aiko", "Mateo", "Olu", "Sven", "Wei", "Jonas", "Amara")


def build(rng: random.Random) -> Catalog:
    cat = Catalog()
    for key, section, text, query, term, paraphrase in FACTS:
        cat.notes.append(Note(key, text, section=section))
        tags = ("command",) if section == "Commands" else (section.lower().rstrip("s"),)
        cat.queries.append(QuerySpec(query, "fact", ((key, 2),), tags=tags, answer_terms=(term,)))
        if paraphrase:
            cat.queries.append(
                QuerySpec(
                    paraphrase, "paraphrase", ((key, 2),), tags=("of-fact",), answer_terms=(term,)
                )
            )
    ports = rng.sample(range(7100, 7200), len(SERVICES))
    for svc, port in zip(SERVICES, ports, strict=True):
        key = f"port-{svc}"
        cat.notes.append(
            Note(
                key,
                f"The {svc} service listens on port {port} in local development.",
                section="Notes",
            )
        )
        cat.queries.append(
            QuerySpec(
                f"which port does the {svc} service listen on locally",
                "fact",
                ((key, 2),),
                tags=("templated",),
                answer_terms=(str(port),),
            )
        )
    owned = [s for s in SERVICES if s != "billing"]  # billing's owner changes (newest-wins)
    for svc, name in zip(owned, rng.sample(OWNERS, len(owned)), strict=True):
        key = f"owner-{svc}"
        cat.notes.append(
            Note(
                key,
                f"{name} owns the {svc} service; ask them before changing its database schema.",
                section="Notes",
            )
        )
        cat.queries.append(
            QuerySpec(
                f"who owns the {svc} service",
                "fact",
                ((key, 2),),
                tags=("templated",),
                answer_terms=(f"{name} owns",),
            )
        )
    return cat
