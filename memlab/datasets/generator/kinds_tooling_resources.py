"""Kinds about what a service uses and how it ships: topic, table, feature flag, secret,
reviewer, bucket, deploy (part of ``kinds_tooling.TOOLING_KINDS``)."""

from __future__ import annotations

from memlab.datasets.generator.kinds import Kind

RESOURCE_KINDS: tuple[Kind, ...] = (
    Kind(
        key="topic",
        noun="input topic",
        section="Notes",
        mem_section="Architecture",
        notes=(
            "{comp} consumes the `{v}` topic.",
            "{comp} listens to `{v}` on the broker.",
            "Events for {comp} arrive on `{v}`.",
        ),
        asks=(
            "which topic does {comp} consume",
            "{comp} kafka topic",
            "what queue does {comp} read from",
        ),
        paras=("where do the messages that {comp} processes come from", "what stream feeds {comp}"),
        changes=("{comp} consumes `{v}` from now on.", "Moved {comp} to the `{v}` topic."),
        when_asks=(
            "what did we change about the {comp} topic {when}",
            "which topic did we move {comp} to {when}",
        ),
        distractors=(
            "Consumer lag on {comp} grew during the backfill.",
            "Topic retention for {comp} should be reviewed.",
            "Replayed a topic for {comp} after the outage.",
        ),
        markers=("topic", "consumes", "listens to", "arrive"),
    ),
    Kind(
        key="table",
        noun="storage table",
        section="Notes",
        mem_section="Architecture",
        notes=(
            "{comp} writes {thing} to the `{v}` table.",
            "The `{v}` table holds the {thing} of {comp}.",
            "{comp} persists {thing} in `{v}`.",
        ),
        asks=(
            "which table does {comp} store {thing} in",
            "{comp} {thing} table",
            "where are {comp} {thing} persisted",
        ),
        paras=("where in the database do I find the {thing} that {comp} keeps",),
        changes=(
            "{comp} writes {thing} to `{v}` now.",
            "Migrated the {thing} of {comp} into `{v}`.",
        ),
        when_asks=(
            "what did we change about where {comp} stores {thing} {when}",
            "which table did {comp} {thing} move to {when}",
        ),
        distractors=(
            "A query on {comp} {thing} was slow; missing index?",
            "Cleaned up old {thing} in {comp} by hand.",
            "Schema review for {comp} {thing} next week.",
        ),
        markers=("table", "persists", "writes"),
    ),
    Kind(
        key="flag",
        noun="feature flag",
        section="Decisions",
        mem_section="Configuration",
        notes=(
            "The new {comp} code path is behind the flag `{v}`.",
            "Feature flag `{v}` switches {comp} to the new implementation.",
            "The {comp} rollout is gated by `{v}`.",
        ),
        asks=(
            "which feature flag enables the new {comp} code path",
            "{comp} feature flag",
            "what flag gates the {comp} rollout",
        ),
        paras=(
            "how do I turn on the rewritten {comp} for one customer",
            "what toggle puts {comp} on its rewrite",
        ),
        changes=("The {comp} flag is `{v}` now.", "Renamed the {comp} rollout flag to `{v}`."),
        when_asks=(
            "what did we rename the {comp} flag to {when}",
            "what did we change about the {comp} feature flag {when}",
        ),
        distractors=(
            "Flag cleanup for {comp} is overdue.",
            "Turned a {comp} flag off in staging to compare.",
            "A customer asked about the {comp} rollout status.",
        ),
        markers=("flag", "gated"),
    ),
    Kind(
        key="secret",
        noun="Vault path",
        section="Notes",
        mem_section="Configuration",
        notes=(
            "{comp} secrets are in Vault under `{v}`.",
            "The Vault path for {comp} credentials is `{v}`.",
            "Credentials of {comp} live at `{v}` in Vault.",
        ),
        asks=(
            "where are the {comp} secrets in vault",
            "{comp} vault path",
            "where do I find the {comp} credentials",
        ),
        paras=(
            "where are the passwords that {comp} needs kept",
            "where do I look up the keys {comp} uses to log in",
        ),
        changes=("Moved the {comp} secrets to `{v}`.", "{comp} credentials live at `{v}` now."),
        when_asks=(
            "what did we change about the {comp} secrets {when}",
            "where did we move the {comp} credentials {when}",
        ),
        distractors=(
            "Rotated a {comp} credential after the contractor left.",
            "Secret sprawl in {comp}; audit pending.",
            "{comp} failed to read a secret in staging because the token expired.",
        ),
        markers=("vault", "secrets", "credentials", "secret"),
    ),
    Kind(
        key="reviewer",
        noun="required reviewer",
        section="Notes",
        mem_section="People",
        notes=(
            "Changes to {comp} need a review from {v}.",
            "{v} must approve every {comp} pull request.",
            "{comp} PRs require {v} as a reviewer.",
        ),
        asks=(
            "who needs to review {comp} changes",
            "{comp} required reviewer",
            "who approves {comp} pull requests",
        ),
        paras=("whose OK do I need to merge into {comp}", "who signs off on code in {comp}"),
        changes=(
            "{v} is the required reviewer for {comp} now.",
            "Review duty for {comp} moved to {v}.",
        ),
        when_asks=(
            "who became the {comp} reviewer {when}",
            "what did we change about {comp} reviews {when}",
        ),
        distractors=(
            "The {comp} review queue is long this week.",
            "Asked for a quick review on a {comp} PR.",
            "Review comments on {comp} were mostly about style.",
        ),
        markers=("review", "reviewer", "approve", "prs"),
    ),
    Kind(
        key="bucket",
        noun="export bucket",
        section="Notes",
        mem_section="Architecture",
        notes=(
            "{comp} writes its exports to the bucket `{v}`.",
            "Artifacts of {comp} are stored in `{v}`.",
            "The `{v}` bucket holds the output of {comp}.",
        ),
        asks=(
            "which bucket does {comp} write to",
            "{comp} storage bucket",
            "where does {comp} store its exports",
        ),
        paras=(
            "where do the files that {comp} produces end up",
            "where can I download what {comp} generated",
        ),
        changes=("{comp} writes to `{v}` now.", "Moved the {comp} output to `{v}`."),
        when_asks=(
            "what did we change about the {comp} bucket {when}",
            "which bucket did {comp} move to {when}",
        ),
        distractors=(
            "{comp} exports were missing from the bucket for a day.",
            "Bucket lifecycle rules for {comp} need a review.",
            "Cleaned up old {comp} exports by hand.",
        ),
        markers=("bucket", "exports", "stored", "output"),
    ),
    Kind(
        key="deploy",
        noun="deploy command",
        section="Notes",
        mem_section="Notes",
        notes=(
            "Deploy {comp} with `{v}`.",
            "`{v}` ships {comp} to production.",
            "Production deploys of {comp} go through `{v}`.",
        ),
        asks=(
            "how do I deploy {comp}",
            "{comp} deploy command",
            "command to ship {comp} to production",
        ),
        paras=(
            "how does my {comp} change reach customers",
            "what do I run to put {comp} live",
        ),
        changes=("{comp} deploys use `{v}` now.", "Changed the {comp} deploy to `{v}`."),
        when_asks=(
            "what did we change about deploying {comp} {when}",
            "which deploy command did {comp} get {when}",
        ),
        distractors=(
            "The {comp} deploy got stuck at half the pods.",
            "Rolled back a {comp} deploy after errors.",
            "The {comp} deploy took far too long.",
        ),
        markers=("deploy", "deploys", "ships"),
    ),
)
