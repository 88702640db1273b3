"""Kinds about operating a service: dashboard, alerts, runbook, config file, environment
variable, test command, logs (part of ``kinds_tooling.TOOLING_KINDS``)."""

from __future__ import annotations

from memlab.datasets.generator.kinds import Kind

OPS_KINDS: tuple[Kind, ...] = (
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
)
