"""Kinds about a service's schedules and limits: nightly schedule, health check, batch
size, rate limit, SLO, region, pinned version (part of ``kinds_service.SERVICE_KINDS``)."""

from __future__ import annotations

from memlab.datasets.generator.kinds import Kind

POLICY_KINDS: tuple[Kind, ...] = (
    Kind(
        key="schedule",
        noun="nightly schedule",
        section="Notes",
        mem_section="Services",
        notes=(
            "The {comp} nightly job runs at {v}.",
            "{comp} kicks off its nightly batch at {v}.",
            "Every night {comp} starts its run at {v}, cron lives in deploy/cron.yaml.",
        ),
        asks=(
            "what time does the {comp} nightly job run",
            "when does {comp} run its nightly batch",
            "{comp} nightly schedule",
        ),
        paras=(
            "at what hour does {comp} do its overnight work",
            "when should I expect {comp} to be busy after midnight",
        ),
        changes=(
            "Moved the {comp} nightly job to {v}.",
            "{comp} runs nightly at {v} now, clear of the backup window.",
            "Shifted the {comp} nightly batch to {v}.",
        ),
        when_asks=(
            "what new time did the {comp} nightly job get {when}",
            "what did we change about the {comp} nightly schedule {when}",
        ),
        distractors=(
            "The {comp} nightly job overlapped with backups again.",
            "The {comp} nightly run took twice as long as usual.",
            "Someone asked whether the {comp} nightly job could run hourly; no.",
        ),
        markers=("nightly", "every night", "cron"),
        zh_notes=("{comp} 的夜间任务每天 {v} 开始运行。",),
        zh_asks=("{comp} 的夜间任务 几点", "{comp} 夜间任务 运行时间"),
    ),
    Kind(
        key="health",
        noun="health check path",
        section="Notes",
        mem_section="Services",
        notes=(
            "The {comp} health check is `GET {v}`.",
            "Kubernetes probes hit `{v}` on {comp}.",
            "{comp} reports readiness on `{v}`.",
        ),
        asks=(
            "what is the {comp} health check endpoint",
            "{comp} readiness probe path",
            "which path do the probes use for {comp}",
        ),
        paras=(
            "what URL tells Kubernetes that {comp} is alive",
            "where do I curl to see whether {comp} is up",
        ),
        changes=(
            "Moved the {comp} health check to `{v}`.",
            "{comp} probes hit `{v}` from now on.",
        ),
        when_asks=(
            "what did we change about the {comp} health check {when}",
            "which probe path did we give {comp} {when}",
        ),
        distractors=(
            "{comp} failed its health check during the rollout; it was a slow start.",
            "The health checks of {comp} may be too aggressive.",
            "Add a dependency check to the {comp} health check? Not yet.",
        ),
        markers=("health", "probes", "readiness", "probe"),
    ),
    Kind(
        key="batch",
        noun="batch size",
        section="Notes",
        mem_section="Services",
        notes=(
            "{comp} processes its input in batches of {v}.",
            "The batch size in {comp} is {v}.",
            "{comp} flushes after every {v}.",
        ),
        asks=(
            "what batch size does {comp} use",
            "{comp} batch size",
            "how many records does {comp} process per batch",
        ),
        paras=(
            "how much does {comp} grab in one go",
            "how big are the chunks of work {comp} takes at a time",
        ),
        changes=(
            "Raised the {comp} batch size to {v}.",
            "{comp} processes {v} per batch now.",
            "Dropped {comp} batches to {v}.",
        ),
        when_asks=(
            "what did we change about the {comp} batch size {when}",
            "what batch size did we give {comp} {when}",
        ),
        distractors=(
            "{comp} batches were slow after the deploy.",
            "Batch processing in {comp} stalled on a poison record.",
            "Tuning {comp} batch sizes is on the list.",
        ),
        markers=("batch", "batches", "flushes"),
    ),
    Kind(
        key="ratelimit",
        noun="rate limit",
        section="Notes",
        mem_section="Services",
        notes=(
            "{comp} allows {v} per client.",
            "The {comp} rate limit is {v}.",
            "Clients of {comp} are throttled above {v}.",
        ),
        asks=(
            "what is the {comp} rate limit",
            "{comp} rate limit per client",
            "how many requests per minute does {comp} allow",
        ),
        paras=(
            "how hard can one caller hammer {comp} before it pushes back",
            "when does {comp} start turning away a busy caller",
        ),
        changes=(
            "Raised the {comp} rate limit to {v}.",
            "{comp} throttles at {v} now.",
        ),
        when_asks=(
            "what did we change about the {comp} rate limit {when}",
            "what rate limit did we set on {comp} {when}",
        ),
        distractors=(
            "A partner hit the {comp} rate limit during their batch.",
            "Rate limit headers are missing in {comp}.",
            "Discussed per-tenant rate limits for {comp}.",
        ),
        markers=("rate limit", "throttled", "throttles", "allows"),
    ),
    Kind(
        key="slo",
        noun="latency SLO",
        section="Decisions",
        mem_section="Services",
        notes=(
            "{comp} targets a p95 latency of {v}.",
            "The {comp} latency SLO is p95 under {v}.",
            "{comp} must answer within {v} at p95.",
        ),
        asks=(
            "what is the {comp} latency SLO",
            "{comp} p95 target",
            "how fast must {comp} respond",
        ),
        paras=(
            "how quick does {comp} have to be for most requests",
            "what speed objective do we promise for {comp}",
        ),
        changes=(
            "Tightened the {comp} latency SLO to {v}.",
            "The {comp} p95 target is {v} now.",
        ),
        when_asks=(
            "what did we change about the {comp} SLO {when}",
            "what p95 target did we set for {comp} {when}",
        ),
        distractors=(
            "{comp} latency spiked during the deploy.",
            "Burned a chunk of the {comp} error budget this week.",
            "The SLO review for {comp} is postponed.",
        ),
        markers=("slo", "p95", "latency"),
    ),
    Kind(
        key="region",
        noun="region",
        section="Notes",
        mem_section="Services",
        notes=(
            "{comp} is deployed in `{v}`.",
            "Production {comp} runs in the `{v}` region.",
            "{comp} lives in `{v}`, no multi-region yet.",
        ),
        asks=(
            "which region is {comp} deployed in",
            "{comp} region",
            "where does production {comp} run",
        ),
        paras=(
            "in which data centre area is {comp} hosted",
            "where geographically does {comp} live",
        ),
        changes=("Migrated {comp} to `{v}`.", "{comp} runs in `{v}` since the migration."),
        when_asks=(
            "which region did we move {comp} to {when}",
            "what did we change about where {comp} runs {when}",
        ),
        distractors=(
            "Cross-region latency to {comp} is bad.",
            "Discussed moving {comp} closer to customers.",
            "Region failover for {comp} is untested.",
        ),
        markers=("region", "deployed", "migrated", "lives in", "runs in"),
    ),
    Kind(
        key="version",
        noun="pinned library version",
        section="Gotchas",
        mem_section="Dependencies",
        notes=(
            "{comp} pins {lib} {v}.",
            "{comp} depends on {lib} {v}; newer releases break it.",
            "We hold {lib} at {v} in {comp}.",
        ),
        asks=(
            "which {lib} version does {comp} pin",
            "{comp} {lib} version",
            "what version of {lib} does {comp} use",
        ),
        paras=("which release of {lib} is {comp} stuck on",),
        changes=(
            "Bumped {lib} in {comp} to {v}.",
            "{comp} uses {lib} {v} now.",
            "Pinned {comp} to {lib} {v} after the regression.",
        ),
        when_asks=(
            "which {lib} version did we move {comp} to {when}",
            "what did we change about {lib} in {comp} {when}",
        ),
        distractors=(
            "The {lib} upgrade for {comp} is blocked by a breaking change.",
            "Dependabot opened another {lib} PR for {comp}.",
            "Read the {lib} changelog for {comp}, nothing urgent.",
        ),
        markers=("pins", "pinned", "depends", "hold", "bumped", "uses"),
    ),
)
