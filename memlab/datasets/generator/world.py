"""The generated world: one developer, five projects (workspaces), their people and timeline.

All five workspaces live under one memory root with one global ``MEMORY.md``
(SPEC §1); each is its own group with its own index. They differ in domain,
language and rhythm: ``ledgerline`` (a TypeScript payments monorepo, most days,
often twice a day), ``tidepool`` (a Python data/ML platform, a few days a week,
some notes in Chinese from the team in Shanghai), ``beacon`` (a Go IoT
telemetry side project, evenings and weekends), ``marigold`` (a Python clinic
booking backend for a contract client, some notes in Chinese from the team in
Taipei) and ``quarry`` (a TypeScript storefront and order system of an online
outdoor-gear shop).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from memlab.timefmt import utc_seconds

START = utc_seconds(2026, 1, 5)  # first session day (a Monday)
END = utc_seconds(2026, 7, 31, 23)  # last query time; sessions stop before it
GLOBAL_CREATED = utc_seconds(2026, 1, 2, 10)


@dataclass(frozen=True)
class Workspace:
    group: str  # group id and project name
    src: str  # the project path the workspace hash is taken from
    lang: str  # ts | py | go
    title: str
    intro: str
    comps: tuple[str, ...]
    people: tuple[str, ...]
    things: tuple[str, ...]  # what the components keep (cache, table kinds)
    libs: tuple[str, ...]  # dependencies pinned by the components
    topics: tuple[str, ...]  # what a session is about
    memory_created: float
    first_session: float
    # sessions per day: weights of 0, 1, 2, 3 sessions on a weekday / weekend day
    weekday: tuple[float, ...]
    weekend: tuple[float, ...]
    hours: tuple[int, int]  # first and last start hour on a weekday (UTC)
    zh_share: float  # share of sessions with a part written in Chinese
    prefix: str  # short project prefix used in identifiers

    @property
    def dir(self) -> str:
        """``<slug>-<hash8>`` (SPEC §1)."""
        return f"{self.group}-{hashlib.sha256(self.src.encode()).hexdigest()[:8]}"


WORKSPACES: tuple[Workspace, ...] = (
    Workspace(
        group="ledgerline",
        src="/home/dev/src/ledgerline",
        lang="ts",
        title="ledgerline",
        intro="Project memory for ledgerline, the payments monorepo (TypeScript on Node, "
        "Postgres, Kafka, Redis). Services live in `services/<name>`, shared code in `packages/`.",
        comps=(
            "gateway",
            "ledger",
            "billing",
            "webhooks",
            "fraud",
            "notifier",
            "reports",
            "scheduler",
            "payouts",
            "refunds",
        ),
        people=(
            "Priya Raman",
            "Mateo Silva",
            "Aiko Tanaka",
            "Olu Adeyemi",
            "Sven Larsen",
            "Leila Haddad",
            "Tomasz Nowak",
            "Grace Kim",
        ),
        things=(
            "exchange rates",
            "idempotency keys",
            "merchant profiles",
            "API keys",
            "settlement batches",
            "card BIN lookups",
            "payout schedules",
            "invoice drafts",
        ),
        libs=("kafkajs", "pg", "fastify", "zod", "ioredis", "pino", "undici", "bullmq"),
        topics=(
            "retries",
            "idempotency",
            "migrations",
            "observability",
            "rate limiting",
            "schema cleanup",
            "flaky tests",
            "release prep",
            "performance",
            "error handling",
            "refactoring",
            "on-call follow-up",
        ),
        memory_created=utc_seconds(2026, 1, 2, 11),
        first_session=START,
        weekday=(0.12, 0.45, 0.33, 0.10),
        weekend=(1.0,),
        hours=(8, 16),
        zh_share=0.05,
        prefix="ll",
    ),
    Workspace(
        group="tidepool",
        src="/home/dev/src/tidepool",
        lang="py",
        title="tidepool",
        intro="Project memory for tidepool, the data and ML platform (Python 3.12, Airflow, "
        "Spark on Kubernetes, Parquet on S3, a Postgres feature store).",
        comps=(
            "ingest",
            "trainer",
            "scorer",
            "backfill",
            "labeler",
            "registry",
            "sampler",
            "exporter",
            "validator",
            "catalog",
        ),
        people=(
            "Wei Zhang",
            "Lin Chen",
            "Ravi Patel",
            "Hannah Mueller",
            "Diego Ortiz",
            "Mei Lin",
            "Jonas Berg",
            "Fatima Noor",
        ),
        things=(
            "feature vectors",
            "model artifacts",
            "label batches",
            "schema snapshots",
            "training runs",
            "partition manifests",
            "embedding shards",
            "drift reports",
        ),
        libs=("pandas", "pyarrow", "sqlalchemy", "pydantic", "boto3", "scikit-learn", "polars"),
        topics=(
            "backfills",
            "data quality",
            "training runs",
            "feature drift",
            "cost",
            "schema evolution",
            "flaky DAGs",
            "model rollout",
            "partitioning",
            "labeling",
        ),
        memory_created=utc_seconds(2026, 1, 9, 15),
        first_session=utc_seconds(2026, 1, 12),
        weekday=(0.45, 0.45, 0.10),
        weekend=(1.0,),
        hours=(7, 15),
        zh_share=0.3,
        prefix="tp",
    ),
    Workspace(
        group="beacon",
        src="/home/dev/src/beacon",
        lang="go",
        title="beacon",
        intro="Project memory for beacon, the IoT telemetry side project (Go 1.22, NATS, "
        "TimescaleDB, MQTT devices). One binary per service under `cmd/`.",
        comps=(
            "collector",
            "router",
            "alertd",
            "provisioner",
            "shadow",
            "firmware",
            "bridge",
            "geofence",
            "canary",
            "keystore",
        ),
        people=(
            "Noah Fischer",
            "Ines Costa",
            "Kofi Mensah",
            "Yuki Sato",
            "Elena Petrova",
            "Arjun Mehta",
        ),
        things=(
            "device shadows",
            "OTA manifests",
            "zone polygons",
            "telemetry frames",
            "device certificates",
            "alert rules",
        ),
        libs=("pgx", "nats.go", "grpc-go", "zap", "paho.mqtt", "chi"),
        topics=(
            "device onboarding",
            "OTA updates",
            "backpressure",
            "certificates",
            "downsampling",
            "alert noise",
            "battery reports",
            "protocol bugs",
        ),
        memory_created=utc_seconds(2026, 1, 16, 19),
        first_session=utc_seconds(2026, 1, 17),
        weekday=(0.86, 0.14),
        weekend=(0.4, 0.5, 0.1),
        hours=(19, 21),
        zh_share=0.0,
        prefix="bc",
    ),
    Workspace(
        group="marigold",
        src="/home/dev/src/marigold",
        lang="py",
        title="marigold",
        intro="Project memory for marigold, the clinic booking backend (Python 3.12, Django 5, "
        "Celery, Postgres, Redis). Apps live in `apps/<name>`, settings in `config/`.",
        comps=(
            "booking",
            "calendar",
            "reminders",
            "patients",
            "intake",
            "insurance",
            "telehealth",
            "waitlist",
            "invoicing",
            "audit",
        ),
        people=(
            "Chen Yi-Ting",
            "Marcus Webb",
            "Lucia Romano",
            "Huang Jun",
            "Sofia Lindqvist",
            "Amir Karimi",
            "Nadia Petrenko",
        ),
        things=(
            "appointment slots",
            "patient records",
            "reminder templates",
            "eligibility claims",
            "questionnaire answers",
            "clinician rosters",
            "video room tokens",
        ),
        libs=("django", "celery", "psycopg", "redis-py", "httpx", "drf-spectacular", "structlog"),
        topics=(
            "double bookings",
            "time zones",
            "reminder delivery",
            "consent forms",
            "slow queries",
            "audit trail",
            "flaky Celery tasks",
            "insurance rules",
            "access control",
            "release prep",
        ),
        memory_created=utc_seconds(2026, 1, 19, 9),
        first_session=utc_seconds(2026, 1, 20),
        weekday=(0.42, 0.43, 0.15),
        weekend=(1.0,),
        hours=(9, 17),
        zh_share=0.2,
        prefix="mg",
    ),
    Workspace(
        group="quarry",
        src="/home/dev/src/quarry",
        lang="ts",
        title="quarry",
        intro="Project memory for quarry, the storefront and order system of an online "
        "outdoor-gear shop (TypeScript, Next.js, NestJS, Postgres, Meilisearch). "
        "Services live in `services/<name>`.",
        comps=(
            "storefront",
            "checkout",
            "cart",
            "inventory",
            "search",
            "orders",
            "shipping",
            "returns",
            "promotions",
            "reviews",
        ),
        people=(
            "Hanna Virtanen",
            "Diego Morales",
            "Zainab Bello",
            "Oscar Lindgren",
            "Rosa Delgado",
            "Kai Nakamura",
            "Ben Carter",
        ),
        things=(
            "product listings",
            "stock levels",
            "guest baskets",
            "carrier labels",
            "promo codes",
            "order snapshots",
            "synonym lists",
        ),
        libs=("next", "@nestjs/core", "prisma", "meilisearch", "pino", "zod", "bullmq"),
        topics=(
            "checkout errors",
            "stock sync",
            "search relevance",
            "page speed",
            "shipping rates",
            "returns flow",
            "promotions",
            "caching",
            "accessibility",
            "flaky e2e tests",
        ),
        memory_created=utc_seconds(2026, 2, 2, 10),
        first_session=utc_seconds(2026, 2, 2),
        weekday=(0.38, 0.42, 0.2),
        weekend=(0.8, 0.2),
        hours=(10, 18),
        zh_share=0.0,
        prefix="qy",
    ),
)

BY_GROUP = {w.group: w for w in WORKSPACES}
