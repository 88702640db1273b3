"""Kinds about the tooling around a service: dashboards, alerts, config, tests, storage, deploys."""

from __future__ import annotations

from memlab.datasets.generator.kinds import Kind

TOOLING_KINDS: tuple[Kind, ...] = (
    Kind(
        key="dashboard",
        noun="Grafana dashboard",
        section="Notes",
        mem_section="Observability",
        notes=(
            "The {comp} Grafana dashboard is `{v}`.",
            "Latency and errors for {comp} are on the Grafana board `{v}`.",
            "{comp} metrics live on the `{v}` dashboard in Grafana.",
        ),
        asks=(
            "which Grafana dashboard shows {comp}",
            "{comp} grafana dashboard",
            "where are the {comp} dashboards",
        ),
        paras=("where can I see charts for {comp}", "what do I open to watch how {comp} is doing"),
        changes=(
            "Renamed the {comp} dashboard to `{v}`.",
            "{comp} moved to the new Grafana board `{v}`.",
        ),
        when_asks=(
            "what did we change about the {comp} dashboard {when}",
            "which Grafana board did {comp} get {when}",
        ),
        distractors=(
            "The {comp} dashboard shows a gap in the metrics from last night.",
            "Grafana panels for {comp} need fixing; the p99 panel is wrong.",
            "Added an error panel to a {comp} dashboard.",
        ),
        markers=("dashboard", "grafana", "board"),
    ),
    Kind(
        key="alerts",
        noun="alert channel",
        section="Notes",
        mem_section="Observability",
        notes=(
            "Alerts for {comp} go to `{v}`.",
            "{comp} pages into `{v}` on Slack.",
            "The `{v}` channel receives every {comp} alert.",
        ),
        asks=(
            "which Slack channel gets {comp} alerts",
            "where do {comp} alerts go",
            "{comp} alert channel",
        ),
        paras=(
            "where will I hear about it when {comp} breaks",
            "which room should I watch when {comp} is on fire",
        ),
        changes=(
            "{comp} alerts go to `{v}` from now on.",
            "Moved the {comp} alert routing to `{v}`.",
        ),
        when_asks=(
            "what did we change about {comp} alerting {when}",
            "where did we route {comp} alerts {when}",
        ),
        distractors=(
            "Too many noisy alerts from {comp} this week.",
            "Muted a flapping {comp} alert for the night.",
            "Alert thresholds for {comp} need a review.",
        ),
        markers=("alerts", "alert", "pages", "channel"),
        zh_notes=("{comp} 的告警都会发到 Slack 频道 `{v}`。",),
        zh_asks=("{comp} 的告警 发到哪个频道", "{comp} 告警都会发到 哪个频道"),
    ),
    Kind(
        key="runbook",
        noun="runbook",
        section="Notes",
        mem_section="Operations",
        notes=(
            "The {comp} runbook is `{v}`.",
            "On-call steps for {comp} are in `{v}`.",
            "If {comp} pages, follow `{v}`.",
        ),
        asks=(
            "where is the {comp} runbook",
            "{comp} runbook",
            "what do I follow when {comp} pages",
        ),
        paras=(
            "which document explains how to handle a {comp} incident",
            "what should I read first when {comp} is down",
        ),
        changes=(
            "Moved the {comp} runbook to `{v}`.",
            "Rewrote the {comp} runbook, it now lives at `{v}`.",
        ),
        when_asks=(
            "what did we change about the {comp} runbook {when}",
            "where did the {comp} runbook move {when}",
        ),
        distractors=(
            "The {comp} runbook is outdated, steps 3 and 4 no longer apply.",
            "Followed the {comp} runbook during the incident and it helped.",
            "Need to add the rollback step to a {comp} runbook.",
        ),
        markers=("runbook", "on-call steps", "follow"),
    ),
    Kind(
        key="config",
        noun="config file",
        section="Notes",
        mem_section="Configuration",
        notes=(
            "{comp} reads its settings from `{v}`.",
            "The {comp} config file is `{v}`.",
            "Settings for {comp} live in `{v}` and env vars override them.",
        ),
        asks=(
            "where is the {comp} config file",
            "which file configures {comp}",
            "{comp} config location",
        ),
        paras=(
            "where do I change the knobs of {comp}",
            "what do I edit to tweak how {comp} behaves",
        ),
        changes=("Moved the {comp} config to `{v}`.", "{comp} reads `{v}` from now on."),
        when_asks=(
            "what did we change about the {comp} config {when}",
            "where did the {comp} config file move {when}",
        ),
        distractors=(
            "The {comp} config has grown too big; split it later.",
            "Config drift between {comp} staging and prod again.",
            "Reviewed the {comp} config change from the other day.",
        ),
        markers=("config", "settings", "reads"),
        zh_notes=("{comp} 的配置文件在 `{v}`，环境变量会覆盖里面的值。",),
        zh_asks=("{comp} 的配置文件 在哪", "{comp} 配置文件 路径"),
    ),
    Kind(
        key="envvar",
        noun="database env var",
        section="Gotchas",
        mem_section="Configuration",
        notes=(
            "{comp} takes its database URL from `{v}`.",
            "Set `{v}` to point {comp} at another database.",
            "`{v}` holds the DSN that {comp} connects to.",
        ),
        asks=(
            "which environment variable holds the {comp} database URL",
            "{comp} database env var",
            "how do I point {comp} at a different database",
        ),
        paras=(
            "what do I export so {comp} talks to my own Postgres",
            "which setting tells {comp} where its data store is",
        ),
        changes=(
            "Renamed the {comp} DSN variable to `{v}`.",
            "{comp} reads its DSN from `{v}` now.",
        ),
        when_asks=(
            "what did we rename the {comp} database variable to {when}",
            "what did we change about the {comp} DSN {when}",
        ),
        distractors=(
            "{comp} picked up the wrong database URL in staging.",
            "Documented the {comp} env vars in the README.",
            "Env var sprawl in {comp}; consolidate later.",
        ),
        markers=("dsn", "database url", "database"),
    ),
    Kind(
        key="testcmd",
        noun="test command",
        section="Notes",
        mem_section="Notes",
        notes=(
            "Run only the {comp} tests with `{v}`.",
            "`{v}` runs the {comp} test suite alone.",
            "For just the {comp} tests use `{v}`.",
        ),
        asks=(
            "how do I run only the {comp} tests",
            "command to run the {comp} test suite",
            "{comp} tests command",
        ),
        paras=(
            "how can I check my {comp} change without running everything",
            "fastest way to verify {comp} on its own",
        ),
        changes=(
            "The {comp} tests run with `{v}` now.",
            "Changed the {comp} test command to `{v}`.",
        ),
        when_asks=(
            "what did we change about the {comp} test command {when}",
            "which command did the {comp} tests get {when}",
        ),
        distractors=(
            "{comp} tests were flaky this morning; reran them twice.",
            "The {comp} test suite takes too long, maybe split it.",
            "Added a few {comp} tests for the edge cases.",
        ),
        markers=("tests", "test suite", "test command"),
    ),
    Kind(
        key="logs",
        noun="log index",
        section="Notes",
        mem_section="Observability",
        notes=(
            "{comp} logs go to the `{v}` index in Kibana.",
            "Search {comp} logs in the `{v}` index.",
            "Production logs of {comp} land in `{v}`.",
        ),
        asks=(
            "where are the {comp} logs",
            "which index holds {comp} logs",
            "{comp} production logs",
        ),
        paras=(
            "where can I read what {comp} printed in prod",
            "where do I search for output of {comp} from the live system",
        ),
        changes=("{comp} logs moved to the `{v}` index.", "Switched {comp} logging to `{v}`."),
        when_asks=(
            "what did we change about {comp} logging {when}",
            "which index did {comp} logs move to {when}",
        ),
        distractors=(
            "{comp} logs are too noisy at info level.",
            "Could not find the {comp} logs for the failed request; sampling?",
            "Log lines of {comp} lack the request id.",
        ),
        markers=("logs", "logging", "index"),
        zh_notes=("{comp} 的生产日志在 Kibana 的 `{v}` 索引里。",),
        zh_asks=("{comp} 的生产日志 在哪", "{comp} 生产日志 索引"),
    ),
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
