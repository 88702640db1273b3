"""Answers that live only in MEMORY.md while many sessions repeat the keywords."""
# ruff: noqa: E501

from __future__ import annotations

import random

from memlab.datasets.generator.spec import GLOBAL, WORKSPACE, Catalog, Distractor, Note, QuerySpec

# (key, where, section, note, query, answer term, distractor templates, paraphrase or "")
# fmt: off
EVERGREEN: tuple[tuple[str, str, str, str, str, str, tuple[str, ...], str], ...] = (
    ("E01", WORKSPACE, "Conventions", "Never deploy to production on Fridays after 15:00 UTC; a hotfix needs two approvals from the on-call rota.", "rules for deploying to production on a Friday", "Fridays after 15:00", ("Deployed the {svc} fix to production after review.", "Friday: tidied up the {svc} test helpers, nothing deployed.", "Production deploy of {svc} went through without incident."), "can I ship to prod late on the last workday of the week"),
    ("E02", WORKSPACE, "Conventions", "Database migrations stay backwards compatible for one release: expand first, contract in the next release.", "policy for database migrations and backwards compatibility", "expand first", ("Wrote a database migration for {svc}.", "Ran the pending database migrations on staging for {svc}.", "Reviewed a migration in {svc}; nothing unusual."), ""),
    ("E03", WORKSPACE, "Conventions", "Feature flags are named `ll_<team>_<feature>` and removed within 30 days of full rollout.", "naming convention for feature flags", "ll_<team>_<feature>", ("Turned on a feature flag for {svc} in staging.", "Feature flag cleanup for {svc} is on the backlog.", "Checked which feature flags {svc} still reads."), ""),
    ("E04", WORKSPACE, "Conventions", "Every mutating public endpoint requires an `Idempotency-Key` header.", "which endpoints need an idempotency key header", "mutating public endpoint", ("Debugged an idempotency key collision in {svc} tests.", "Added logging around idempotency key lookups in {svc}."), ""),
    ("E05", WORKSPACE, "Architecture", "Money is stored as integer minor units plus an ISO 4217 currency code; amounts are never floats.", "how should money amounts be stored", "minor units", ("Fixed an amount formatting bug in {svc}.", "Looked at how {svc} displays amounts to merchants."), "representation of currency values in the database"),
    ("E06", WORKSPACE, "Architecture", "Only the ledger service writes balances; other services call `POST /ledger/transfers`.", "which service is allowed to write account balances", "POST /ledger/transfers", ("Looked into balances drifting on the {svc} dashboard.", "Balance checks in {svc} are slow for big merchants."), ""),
    ("E07", WORKSPACE, "Commands", "`make dev` starts the whole stack with docker compose and seeds the database.", "how do I start the whole local stack", "starts the whole stack", ("Local stack was slow to start today; {svc} took a minute.", "Restarted the local stack after pulling main."), ""),
    ("E08", WORKSPACE, "Conventions", "Pull requests need one code-owner approval and a green CI run before merging.", "what is required before merging a pull request", "code-owner approval", ("Opened a pull request for the {svc} change.", "Merged the {svc} pull request after a quick look."), ""),
    ("E09", WORKSPACE, "Conventions", "Secrets live in Vault under `kv/ledgerline/<env>/<service>`, never in .env files.", "where are service secrets stored", "kv/ledgerline", ("Rotated an API secret used by {svc}.", "Removed a hard-coded secret from a {svc} test."), ""),
    ("E10", WORKSPACE, "Conventions", "On-call hand-over is Monday 10:00 UTC; the outgoing engineer posts a summary in #ll-oncall.", "when is the on-call hand-over", "#ll-oncall", ("Paged by on-call about {svc} latency.", "On-call asked about a {svc} alert; it was noise."), ""),
    ("E11", WORKSPACE, "Architecture", "API versions are dates (for example 2026-01-15) sent in the `Ledgerline-Version` header.", "how do clients select an API version", "Ledgerline-Version", ("Bumped the API version used by the {svc} client.", "Compared two API versions of the {svc} response."), ""),
    ("E12", WORKSPACE, "Conventions", "Customer-facing error codes are documented in `docs/errors.md`; add the code there before returning a new error.", "where are customer-facing error codes documented", "docs/errors.md", ("Returned a clearer error from {svc}.", "Error rate of {svc} went up briefly after lunch."), ""),
    ("E13", WORKSPACE, "Architecture", "Every log line is JSON with a `trace_id`; join gateway and ledger logs on it.", "how do I correlate gateway and ledger logs", "join gateway and ledger logs", ("Grepped the {svc} logs for a failing request.", "Log volume from {svc} doubled after the release."), ""),
    ("G01", GLOBAL, "Preferences", "Prefer pnpm over npm and yarn in JavaScript projects.", "which package manager should I use for JavaScript projects", "over npm and yarn", ("npm audit flagged a transitive dependency in {svc}.", "Cleaned the package manager cache before reinstalling {svc}."), ""),
    ("G02", GLOBAL, "Preferences", "Commit messages: imperative mood, subject under 72 characters, body wrapped at 80.", "how should commit messages be written", "imperative mood", ("Committed the {svc} fix.", "Amended the last commit message on the {svc} branch."), ""),
    ("G03", GLOBAL, "Preferences", "Run the formatters (ruff format, prettier) before every commit.", "should code be formatted before committing", "ruff format, prettier", ("Formatted the {svc} module after the refactor.", "Commit hook output for {svc} was noisy."), ""),
    ("G04", GLOBAL, "Preferences", "Ask before running commands that delete files outside the repository.", "can I delete files outside the repository without asking", "delete files outside", ("Deleted stale build artefacts in {svc}.", "Cleaned up temporary files left by the {svc} tests."), ""),
    ("G05", GLOBAL, "Preferences", "Keep answers short and show the diff before the explanation.", "how does the user like changes explained", "show the diff before", ("Explained the {svc} retry logic to the user.", "User asked for an explanation of the {svc} error types."), ""),
    ("G06", GLOBAL, "Preferences", "Use UTC for every timestamp in logs and messages, never local time.", "which timezone should log timestamps use", "never local time", ("Added timestamps to the {svc} debug output.", "Log timestamps from {svc} looked odd in the dashboard."), ""),
    ("G07", GLOBAL, "Environment", "Docker runs through colima with 8 GB of memory on the M2 laptop.", "how much memory does docker get on the laptop", "colima", ("Pruned old docker images to free disk space.", "Docker compose logs for {svc} were noisy today."), ""),
    ("G08", GLOBAL, "Environment", "Commits are signed with the GPG key ending in 4F2A.", "which GPG key signs my commits", "4F2A", ("Commit signing prompt appeared twice during the {svc} rebase.",), ""),
)
# fmt: on

# Partial answers found elsewhere (query key -> ((note key, grade), ...)).
PARTIAL = {"E05": (("F16", 1),), "E13": (("C12", 1),)}


def build(rng: random.Random) -> Catalog:
    del rng  # nothing random here; placement of distractors happens in the builder
    cat = Catalog()
    for key, where, section, text, query, term, distractors, paraphrase in EVERGREEN:
        cat.notes.append(Note(key, text, where=where, section=section))
        targets = ((key, 2), *PARTIAL.get(key, ()))
        tags = (where,)
        cat.queries.append(
            QuerySpec(query, "evergreen-crowded", targets, tags=tags, answer_terms=(term,))
        )
        if paraphrase:
            cat.queries.append(
                QuerySpec(
                    paraphrase, "paraphrase", targets, tags=("of-evergreen",), answer_terms=(term,)
                )
            )
        cat.distractors.append(Distractor(distractors))
    return cat
