"""Facts that change over time ("newest-wins"): the latest version must rank first."""
# ruff: noqa: E501

from __future__ import annotations

import random

from memlab.datasets.generator.spec import GLOBAL, SESSION, WORKSPACE, Catalog, Note, QuerySpec

# (key, versions oldest → newest, query, answer term of the newest, where the oldest lives)
# fmt: off
UPDATES: tuple[tuple[str, tuple[str, ...], str, str, str], ...] = (
    ("N01", ("CI runs the test matrix on Node 18.", "Moved CI to Node 20; Node 18 is gone from the matrix.", "CI now runs on Node 22 only."), "which Node version does CI run on", "Node 22", SESSION),
    ("N02", ("Staging runs Postgres 14.", "Upgraded staging to Postgres 16; no issues after the switch."), "which Postgres version runs on staging", "Postgres 16", WORKSPACE),
    ("N03", ("Unit tests run on Jest with ts-jest.", "Switched unit tests from Jest to Vitest; `pnpm test` runs Vitest now."), "which test runner do the unit tests use", "runs Vitest now", SESSION),
    ("N04", ("The default branch is `master`.", "Renamed the default branch to `main`; update clones with `git branch -m master main`."), "what is the default branch called", "git branch -m master main", WORKSPACE),
    ("N05", ("Deploys go through the Jenkins pipeline `ll-deploy`.", "Deploys moved from Jenkins to Argo CD; the `ll-deploy` pipeline is retired."), "which tool runs our deploys", "Argo CD", SESSION),
    ("N06", ("The public API rate limit is 100 requests per minute per key.", "Raised the public API rate limit to 250 requests per minute per key."), "what is the public API rate limit per key", "250 requests", SESSION),
    ("N07", ("The gateway upstream timeout is 30 seconds.", "Raised the gateway upstream timeout to 45 seconds because report exports timed out."), "what is the gateway upstream timeout", "45 seconds", SESSION),
    ("N08", ("Webhook deliveries are retried 3 times with exponential backoff.", "Webhook deliveries are now retried 8 times over 24 hours."), "how many times is a webhook delivery retried", "8 times", SESSION),
    ("N09", ("CI fails below 80% line coverage.", "Raised the coverage gate to 85% of lines."), "what coverage threshold does CI enforce", "85%", SESSION),
    ("N10", ("The reconciler runs daily at 02:00 UTC.", "Moved the reconciler to 03:30 UTC to stay clear of the backup window."), "what time does the reconciler run", "03:30", SESSION),
    ("N11", ("Tooling scripts target Python 3.10.", "Tooling scripts now require Python 3.12."), "which Python version do the tooling scripts need", "Python 3.12", SESSION),
    ("N12", ("List endpoints return 50 items per page by default.", "Changed the default page size of list endpoints to 100 items."), "what is the default page size of list endpoints", "100 items", SESSION),
    ("N13", ("Access tokens expire after 15 minutes.", "Extended the access token lifetime to 60 minutes; refresh tokens are unchanged."), "how long until an access token expires", "60 minutes", SESSION),
    ("N14", ("Production log level stays at debug during the launch weeks.", "Production log level is back to info."), "what log level does production use", "back to info", SESSION),
    ("N15", ("Service images build from node:18-alpine.", "Service images now build from node:22-bookworm-slim."), "which base image do the service Docker images use", "node:22-bookworm-slim", SESSION),
    ("N16", ("We release every Wednesday.", "Releases are now every other Thursday."), "how often do we release", "every other Thursday", WORKSPACE),
    ("N17", ("Staging lives at staging.ledgerline.dev.", "Staging moved to stg.ledgerline.io; the old hostname redirects until July."), "what is the staging hostname", "stg.ledgerline.io", SESSION),
    ("N18", ("Errors are reported to the Sentry project `ll-backend`.", "Split Sentry by service: each service reports to its own project `ll-<service>`."), "which Sentry project receives backend errors", "ll-<service>", SESSION),
    ("N19", ("CSV exports are capped at 50k rows.", "Raised the CSV export cap to 200k rows; bigger exports go to S3 behind a signed URL."), "what is the maximum number of rows in a CSV export", "200k rows", SESSION),
    ("N20", ("The ESLint config extends airbnb-base.", "Dropped airbnb-base; ESLint now extends our own `@ledgerline/eslint-config`."), "which ESLint config do we extend", "@ledgerline/eslint-config", SESSION),
    ("N21", ("Fraud scores above 0.8 go to manual review.", "Lowered the manual review threshold for fraud scores to 0.7 after the chargeback spike."), "what fraud score sends a payment to manual review", "to 0.7", SESSION),
    ("N22", ("Domain events go over RabbitMQ.", "Migrated domain events from RabbitMQ to Kafka, one topic per aggregate."), "which message broker carries domain events", "to Kafka", SESSION),
    ("N23", ("Exchange rates are cached for 10 minutes.", "Cut the exchange rate cache to 2 minutes.", "Exchange rate cache set to 5 minutes as a compromise."), "how long are exchange rates cached", "5 minutes as a compromise", SESSION),
    ("N24", ("The gateway runs 3 replicas in production.", "Scaled the gateway to 6 replicas in production after the March peak."), "how many gateway replicas run in production", "6 replicas", SESSION),
    ("N25", ("Tomasz owns the billing service; ask him before changing its database schema.", "Billing ownership moved from Tomasz to Leila."), "who owns the billing service", "to Leila", SESSION),
    ("N26", ("The gateway container has a 512 MiB memory limit.", "Raised the gateway container memory limit to 1 GiB after OOM kills."), "what is the memory limit of the gateway container", "1 GiB", SESSION),
    ("N27", ("Editor: VS Code with the Vim extension.", "Switched to Neovim with LSP for all projects."), "which editor do I use", "Neovim", GLOBAL),
    ("N28", ("The code freeze before a quarterly release lasts 5 days.", "Shortened the code freeze before quarterly releases to 3 days."), "how long is the code freeze before a quarterly release", "to 3 days", SESSION),
)
# fmt: on

# Timeline windows of each version, by number of versions.
WINDOWS = {
    2: ((0.03, 0.45), (0.55, 0.97)),
    3: ((0.03, 0.30), (0.38, 0.62), (0.70, 0.97)),
}
_MEMORY_SECTION = {WORKSPACE: "Environment", GLOBAL: "Environment"}


def build(rng: random.Random) -> Catalog:
    del rng
    cat = Catalog()
    for key, versions, query, term, first_where in UPDATES:
        keys = [f"{key}.v{i + 1}" for i in range(len(versions))]
        for i, (vkey, text, window) in enumerate(
            zip(keys, versions, WINDOWS[len(versions)], strict=True)
        ):
            where = first_where if i == 0 else SESSION
            section = _MEMORY_SECTION.get(where, "Decisions")
            cat.notes.append(
                Note(vkey, text, where=where, section=section, window=window, family=key)
            )
        tags = [f"versions-{len(versions)}"]
        if first_where != SESSION:
            tags.append("stale-evergreen")
        targets = ((keys[-1], 2), *((k, 0) for k in keys[:-1]))
        cat.queries.append(
            QuerySpec(
                query,
                "newest-wins",
                targets,
                stale=tuple(keys[:-1]),
                tags=tuple(tags),
                answer_terms=(term,),
            )
        )
    return cat
