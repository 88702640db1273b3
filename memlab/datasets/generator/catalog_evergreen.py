"""Answers that live only in MEMORY.md while many sessions repeat the keywords."""
# ruff: noqa: E501

from __future__ import annotations

import random

from memlab.datasets.generator.spec import GLOBAL, WORKSPACE, Catalog, Distractor, Note, QuerySpec

# (key, where, section, note, query, answer term, distractor templates, paraphrase or "")
# fmt: off
EVERGREEN: tuple[tuple[str, str, str, str, str, str, tuple[str, ...], str], ...] = (
    ("E01", WORKSPACE, "Conventions", "Production deploys are not allowed on Fridays after 15:00 UTC; a hotfix needs two approvals from the on-call rota.", "what are the rules for production deploys on Fridays", "Fridays after 15:00", ("Production deploys of {svc} went fine this week.", "Talked about production deploys of {svc} before the weekend; the user asked about the rules again.", "Two production deploys of {svc} on Fridays this month, both in the morning."), "can I ship to prod late on the last workday of the week"),
    ("E02", WORKSPACE, "Conventions", "Database migrations stay backwards compatible for one release: expand first, contract in the next release.", "policy for database migrations and backwards compatibility", "expand first", ("Wrote database migrations for {svc}; checked backwards compatibility by hand.", "Reviewed the {svc} database migrations with the user; backwards compatibility looked fine.", "Ran the pending database migrations for {svc} on staging."), ""),
    ("E03", WORKSPACE, "Conventions", "Feature flags are named `ll_<team>_<feature>` and removed within 30 days of full rollout.", "naming convention for feature flags", "ll_<team>_<feature>", ("Turned on the {svc} feature flags in staging; naming looked inconsistent.", "Cleaned up old feature flags in {svc}.", "Feature flags for {svc} got a naming pass."), ""),
    ("E04", WORKSPACE, "Conventions", "Every mutating public endpoint requires an `Idempotency-Key` header.", "which endpoints need an idempotency key header", "mutating public endpoint", ("Debugged an idempotency key header mismatch on two {svc} endpoints.", "Added logging of the idempotency key header in {svc} endpoints."), ""),
    ("E05", WORKSPACE, "Architecture", "Money is stored as integer minor units plus an ISO 4217 currency code; amounts are never floats.", "how should money amounts be stored", "minor units", ("Fixed how {svc} formats money amounts in emails.", "Money amounts in the {svc} dashboard were rounded oddly; stored values were fine."), "representation of currency values in the database"),
    ("E06", WORKSPACE, "Architecture", "Only the ledger service writes balances; other services call `POST /ledger/transfers`.", "which service is allowed to write account balances", "POST /ledger/transfers", ("Account balances on the {svc} service dashboard drifted; investigating.", "The {svc} service reads account balances for a report."), ""),
    ("E07", WORKSPACE, "Commands", "`make dev` starts the whole stack with docker compose and seeds the database.", "how do I start the whole local stack", "starts the whole stack", ("Local stack was slow to start today; {svc} took a minute.", "The whole local stack would not start until Docker was restarted.", "Restarted the local stack after pulling main."), ""),
    ("E08", WORKSPACE, "Conventions", "Pull requests need one code-owner approval and a green CI run before merging.", "what is required before merging a pull request", "code-owner approval", ("Opened a pull request for the {svc} change; merging after review.", "Merging the {svc} pull request was blocked for a while."), ""),
    ("E09", WORKSPACE, "Conventions", "Secrets live in Vault under `kv/ledgerline/<env>/<service>`, never in .env files.", "where are service secrets stored", "kv/ledgerline", ("Rotated secrets used by the {svc} service.", "Removed hard-coded secrets from a {svc} service test."), ""),
    ("E10", WORKSPACE, "Conventions", "On-call hand-over is Monday 10:00 UTC; the outgoing engineer posts a summary in #ll-oncall.", "when is the on-call hand-over", "#ll-oncall", ("Paged by on-call about {svc} latency; handed over to the next shift.", "On-call asked about a {svc} alert; it was over quickly.", "The on-call hand-over notes mentioned {svc}."), ""),
    ("E11", WORKSPACE, "Architecture", "API versions are dates (for example 2026-01-15) sent in the `Ledgerline-Version` header.", "how do clients select an API version", "Ledgerline-Version", ("Bumped the API version used by the {svc} clients.", "Clients of {svc} still send an old API version."), ""),
    ("E12", WORKSPACE, "Conventions", "Customer-facing error codes are documented in `docs/errors.md`; add the code there before returning a new error.", "where are customer-facing error codes documented", "docs/errors.md", ("Returned clearer error codes from {svc} to customer-facing screens.", "Customer-facing error messages in {svc} need work."), ""),
    ("E13", WORKSPACE, "Architecture", "Every log line is JSON with a `trace_id`; join gateway and ledger logs on it.", "how do I correlate gateway and ledger logs", "join gateway and ledger logs", ("Grepped the gateway logs and the ledger logs for a failing {svc} request.", "Ledger logs were noisy after the gateway release of {svc}."), ""),
    ("G01", GLOBAL, "Preferences", "Prefer pnpm over npm and yarn in JavaScript projects.", "which package manager should I use for JavaScript projects", "over npm and yarn", ("The {svc} JavaScript package got a new version.", "Cleaned the package manager cache before reinstalling {svc}.", "Checked which JavaScript projects still use the old {svc} package."), ""),
    ("G02", GLOBAL, "Preferences", "Commit messages: imperative mood, subject under 72 characters, body wrapped at 80.", "how should commit messages be written", "imperative mood", ("Commit messages on the {svc} branch were written in a hurry.", "Squashed the {svc} commit messages before merging."), ""),
    ("G03", GLOBAL, "Preferences", "Code must be formatted (ruff format, prettier) before committing.", "should code be formatted before committing", "ruff format, prettier", ("Formatted the {svc} code after the refactor.", "Committing the {svc} code took two tries because of a hook."), ""),
    ("G04", GLOBAL, "Preferences", "Ask before running commands that delete files outside the repository.", "can I delete files outside the repository without asking", "delete files outside", ("Deleted stale build files in the {svc} repository.", "Deleted temporary files in the {svc} repository."), ""),
    ("G05", GLOBAL, "Preferences", "When explaining changes to the user, keep answers short and show the diff first.", "how does the user like changes explained", "show the diff first", ("Explained the {svc} retry changes to the user.", "User asked why the {svc} changes were needed."), ""),
    ("G06", GLOBAL, "Preferences", "Log timestamps use UTC, never local time or the server timezone.", "which timezone should log timestamps use", "never local time", ("Added timestamps to the {svc} log output.", "Log timestamps from {svc} looked odd in the dashboard."), ""),
    ("G07", GLOBAL, "Environment", "Docker runs through colima with 8 GB of memory on the M2 laptop.", "how much memory does docker get on the laptop", "colima", ("Docker on the laptop ran out of disk; pruned old images.", "The {svc} container used too much memory in Docker."), ""),
    ("G08", GLOBAL, "Environment", "Commits are signed with the GPG key ending in 4F2A.", "which GPG key signs my commits", "4F2A", ("GPG prompt appeared twice while signing the {svc} commits.", "Commits on the {svc} branch were missing signatures after a rebase."), ""),
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
