"""Kinds about how a service runs: port, owner, timeouts, retries, scale, schedules, limits."""

from __future__ import annotations

from memlab.datasets.generator.kinds import Kind

SERVICE_KINDS: tuple[Kind, ...] = (
    Kind(
        key="port",
        noun="local port",
        section="Notes",
        mem_section="Services",
        notes=(
            "{comp} listens on port {v} in local dev; docker compose maps it one to one.",
            "Locally the {comp} dev server binds to port {v}, set in its .env.local file.",
            "Heads-up for local runs, {comp} is on port {v} and not on the framework default.",
        ),
        asks=(
            "which port does {comp} listen on locally",
            "{comp} local dev port",
            "what port is {comp} on in local development",
        ),
        paras=(
            "what number goes after localhost to reach {comp} on my laptop",
            "where do I point curl to hit {comp} running on my machine",
        ),
        changes=(
            "Moved {comp} to port {v} locally so it stops clashing with the docs server.",
            "Changed the local port of {comp} to {v}.",
            "{comp} now binds to port {v} in local dev.",
        ),
        when_asks=(
            "which port did we move {comp} to {when}",
            "what did we change about the {comp} local port {when}",
        ),
        distractors=(
            "{comp} did not come up on its usual port after the rebase; a stale container held it.",
            "Port clash between {comp} and another dev server again, restarting fixed it.",
            "Checked which port {comp} uses locally before wiring the proxy; it matches compose.",
        ),
        markers=("port",),
        zh_notes=("{comp} 在本地开发环境监听端口 {v}，docker compose 里是一一映射的。",),
        zh_asks=("{comp} 本地开发环境 端口", "{comp} 监听端口 是多少"),
    ),
    Kind(
        key="owner",
        noun="owner",
        section="Notes",
        mem_section="People",
        notes=(
            "{v} owns {comp}, so schema changes need their sign-off.",
            "{comp} is owned by {v}; ask them before touching its data model.",
            "Per CODEOWNERS the owner of {comp} is {v}.",
        ),
        asks=("who owns {comp}", "who is the owner of {comp}", "{comp} owner"),
        paras=(
            "which teammate is responsible for {comp}",
            "who do I ping first when {comp} misbehaves",
        ),
        changes=(
            "Ownership of {comp} moved to {v}.",
            "{v} took over {comp} from its previous owner.",
            "Handed {comp} over to {v}, CODEOWNERS updated.",
        ),
        when_asks=("who took over {comp} {when}", "what changed in {comp} ownership {when}"),
        distractors=(
            "Pinged the {comp} owner about the flaky test, no answer yet.",
            "Need the owner of {comp} to approve the migration.",
            "CODEOWNERS for {comp} looks out of date; fix later.",
        ),
        markers=("owns", "owner", "owned", "ownership", "took over", "handed"),
        zh_notes=("{comp} 的负责人是 {v}，改数据结构之前要先问他们。",),
        zh_asks=("{comp} 的负责人 是谁", "{comp} 负责人"),
    ),
    Kind(
        key="timeout",
        noun="upstream timeout",
        section="Notes",
        mem_section="Services",
        notes=(
            "{comp} gives upstream calls {v} before timing out.",
            "The upstream timeout for {comp} is {v}, see timeouts.yaml.",
            "{comp} aborts a downstream request after {v}.",
        ),
        asks=(
            "what is the upstream timeout of {comp}",
            "{comp} request timeout",
            "how long does {comp} wait before timing out",
        ),
        paras=(
            "how many seconds until {comp} gives up on a slow dependency",
            "when does {comp} stop waiting for a sluggish backend",
        ),
        changes=(
            "Raised the {comp} upstream timeout to {v}.",
            "Set the {comp} timeout to {v} after the export failures.",
            "The {comp} timeout is {v} from now on.",
        ),
        when_asks=(
            "what did we change about the {comp} timeout {when}",
            "what did we set the {comp} upstream timeout to {when}",
        ),
        distractors=(
            "Saw a few timeouts in {comp} during the load test; probably not the timeout setting.",
            "{comp} timed out once against staging and the retry passed.",
            "Should the {comp} timeout be per route? Parked.",
        ),
        markers=("timeout", "timing out", "aborts"),
        zh_notes=("{comp} 调用上游服务的超时时间是 {v}。",),
        zh_asks=("{comp} 上游服务 超时时间", "{comp} 的超时时间 是多少"),
    ),
    Kind(
        key="retries",
        noun="retry count",
        section="Notes",
        mem_section="Services",
        notes=(
            "{comp} retries a failed call up to {v} with exponential backoff.",
            "{comp} parks a message in the dead-letter queue after {v}.",
            "{comp} gives up after {v}, with jittered backoff in between.",
        ),
        asks=(
            "how many times does {comp} retry",
            "{comp} retry count",
            "how many attempts before {comp} gives up",
        ),
        paras=(
            "how persistent is {comp} when a dependency keeps failing",
            "how often will {comp} try again before it dead-letters something",
        ),
        changes=(
            "Bumped {comp} retries to {v}.",
            "{comp} now retries up to {v}.",
            "Cut {comp} retries to {v} to stop the retry storm.",
        ),
        when_asks=(
            "what did we change about {comp} retries {when}",
            "how many retries did we set for {comp} {when}",
        ),
        distractors=(
            "Retry storm from {comp} again this morning; the backoff looked fine.",
            "{comp} retried a lot during the outage, we need better metrics on retries.",
            "Talked about moving {comp} retries into the client library.",
        ),
        markers=("retries", "retry", "attempts", "dead-letter"),
    ),
    Kind(
        key="replicas",
        noun="production replica count",
        section="Notes",
        mem_section="Services",
        notes=(
            "{comp} runs {v} in production.",
            "Production has {v} of {comp} behind the load balancer.",
            "{comp} is scaled to {v} in prod, with HPA min equal to max.",
        ),
        asks=(
            "how many replicas does {comp} run in production",
            "{comp} production replicas",
            "how many instances of {comp} are in prod",
        ),
        paras=(
            "how wide is the {comp} fleet in the live environment",
            "how many copies of {comp} serve live traffic",
        ),
        changes=(
            "Scaled {comp} to {v} in production.",
            "{comp} runs {v} in prod after the traffic peak.",
            "Reduced {comp} to {v} to save cost.",
        ),
        when_asks=(
            "how many replicas did we scale {comp} to {when}",
            "what did we change about {comp} scaling {when}",
        ),
        distractors=(
            "One {comp} replica was crash-looping in prod and recovered on its own.",
            "Should {comp} autoscale on queue depth instead of CPU? Open question.",
            "The replica count of {comp} came up in the capacity review, no decision.",
        ),
        markers=("replicas", "replica", "scaled", "instances"),
    ),
    Kind(
        key="memlimit",
        noun="memory limit",
        section="Notes",
        mem_section="Services",
        notes=(
            "The {comp} container has a memory limit of {v}.",
            "{comp} gets OOM-killed above {v}, which is its container limit.",
            "{comp} pods are capped at {v} of memory.",
        ),
        asks=(
            "what is the memory limit of the {comp} container",
            "{comp} memory limit",
            "how much memory can {comp} use",
        ),
        paras=(
            "how much RAM is {comp} allowed before the kernel kills it",
            "how big can {comp} grow before Kubernetes evicts it",
        ),
        changes=(
            "Raised the {comp} memory limit to {v}.",
            "The {comp} memory limit is {v} now.",
            "Lowered {comp} to {v} of memory after profiling.",
        ),
        when_asks=(
            "what did we set the {comp} memory limit to {when}",
            "what did we change about {comp} memory {when}",
        ),
        distractors=(
            "{comp} memory climbs slowly over a day; maybe a leak, maybe caches.",
            "Got an OOM alert for {comp} in staging, where the memory limit differs from prod.",
            "Profiled {comp} memory with a heap snapshot, nothing conclusive.",
        ),
        markers=("memory", "oom-killed"),
        zh_notes=("{comp} 容器的内存上限是 {v}，超过就会被 OOM kill。",),
        zh_asks=("{comp} 容器 内存上限", "{comp} 内存上限 多少"),
    ),
    Kind(
        key="cache",
        noun="cache TTL",
        section="Notes",
        mem_section="Services",
        notes=(
            "{comp} caches {thing} for {v}.",
            "The cache TTL of {thing} in {comp} is {v}.",
            "{comp} keeps {thing} in Redis for {v}.",
        ),
        asks=(
            "how long does {comp} cache {thing}",
            "{comp} {thing} cache TTL",
            "cache expiry for {thing} in {comp}",
        ),
        paras=(
            "how stale can the {thing} served by {comp} be",
            "after how long does {comp} refetch {thing}",
        ),
        changes=(
            "Cut the {comp} cache for {thing} to {v}.",
            "{comp} caches {thing} for {v} from now on.",
            "Raised the TTL of {thing} in {comp} to {v}.",
        ),
        when_asks=(
            "what did we change about the {thing} cache in {comp} {when}",
            "what TTL did we give {thing} in {comp} {when}",
        ),
        distractors=(
            "Stale {thing} in {comp} again; cleared the cache by hand.",
            "The {comp} cache hit rate for {thing} dropped after the deploy.",
            "Considered caching {thing} in {comp} for longer, no decision.",
        ),
        markers=("cache", "caches", "ttl", "keeps"),
    ),
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
