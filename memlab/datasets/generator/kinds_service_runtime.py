"""Kinds about how a service runs: local port, owner, timeout, retries, replicas, memory
limit, cache (part of ``kinds_service.SERVICE_KINDS``)."""

from __future__ import annotations

from memlab.datasets.generator.kinds import Kind

RUNTIME_KINDS: tuple[Kind, ...] = (
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
)
