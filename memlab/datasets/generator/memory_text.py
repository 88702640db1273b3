"""The unlabelled parts of the MEMORY.md files: who the user is, what each component does."""
# ruff: noqa: E501

from __future__ import annotations

from memlab.datasets.generator.draft import MemoryFile

GLOBAL_TITLE = "Global memory"
GLOBAL_INTRO = "Cross-project preferences of the user and notes about their machine."
ABOUT = (
    "I'm Sam, a backend developer working on five projects: ledgerline (the day job), tidepool (two days a week), beacon (a side project in the evenings), marigold (a contract for a clinic network) and quarry (a friend's outdoor-gear shop, some weekends too).",
    "Memory here applies to every project; project details live in each project's MEMORY.md.",
)

DESCRIPTIONS = {
    "ledgerline": {
        "gateway": "public REST API, authentication and routing to the services",
        "ledger": "double-entry ledger, the source of truth for balances",
        "billing": "invoices, subscriptions and tax",
        "webhooks": "outgoing webhooks to merchants, signed",
        "fraud": "risk scoring of payments before capture",
        "notifier": "emails and SMS to end customers",
        "reports": "merchant reports and CSV downloads",
        "scheduler": "cron-like jobs and delayed tasks",
        "payouts": "settlement payouts to merchant bank accounts",
        "refunds": "refund flows and chargeback handling",
    },
    "tidepool": {
        "ingest": "pulls raw events from Kafka and partner SFTP drops into the lake",
        "trainer": "training jobs on Spark and the GPU nodes",
        "scorer": "online scoring API for the fraud and churn models",
        "backfill": "rebuilds historical partitions",
        "labeler": "collects labels from analysts and chargebacks",
        "registry": "model versions and their stages",
        "sampler": "builds training samples and holdouts",
        "exporter": "ships scores to the warehouse and to partners",
        "validator": "data quality checks on each partition",
        "catalog": "dataset descriptions and lineage",
    },
    "beacon": {
        "collector": "accepts MQTT telemetry from devices",
        "router": "routes telemetry frames to consumers over NATS",
        "alertd": "evaluates alert rules on incoming telemetry",
        "provisioner": "onboards devices and issues their certificates",
        "shadow": "device shadow state, desired against reported",
        "firmware": "firmware images and OTA campaigns",
        "bridge": "bridges legacy devices over HTTP",
        "geofence": "geofence polygons and enter or exit events",
        "canary": "staged OTA rollouts",
        "keystore": "device keys and signing",
    },
    "marigold": {
        "booking": "appointment booking API used by the patient app and the front desk",
        "calendar": "clinician calendars, opening hours and holidays",
        "reminders": "SMS and email reminders before appointments",
        "patients": "patient profiles and their contact details",
        "intake": "intake questionnaires filled in before the first visit",
        "insurance": "insurance eligibility checks and claims",
        "telehealth": "video consultations and their room tokens",
        "waitlist": "waitlist offers when a slot frees up",
        "invoicing": "invoices for self-paying patients",
        "audit": "audit trail of every access to patient data",
    },
    "quarry": {
        "storefront": "the Next.js shop front, product and category pages",
        "checkout": "checkout flow and the card payment step",
        "cart": "carts of guests and signed-in customers",
        "inventory": "stock levels synced from the warehouse system",
        "search": "product search and facets on Meilisearch",
        "orders": "order lifecycle from paid to delivered",
        "shipping": "shipping rates and labels from the carriers",
        "returns": "return requests and refunds to customers",
        "promotions": "promo codes, bundles and seasonal sales",
        "reviews": "product reviews and their moderation",
    },
}

COMMANDS = {
    "ledgerline": (
        "pnpm install",
        "make dev          # the whole stack in docker compose",
        "make lint typecheck",
        "pnpm -r build",
    ),
    "tidepool": (
        "uv sync",
        "make airflow-up   # local Airflow with the example DAGs",
        "make lint",
        "uv run python -m tidepool.cli --help",
    ),
    "beacon": (
        "go build ./...",
        "make up           # NATS, TimescaleDB and a fake device fleet",
        "golangci-lint run",
        "go run ./cmd/devsim --devices 50",
    ),
    "marigold": (
        "uv sync",
        "make up           # Postgres, Redis and a Celery worker in docker compose",
        "uv run python manage.py migrate",
        "uv run pytest -x",
    ),
    "quarry": (
        "pnpm install",
        "pnpm dev          # storefront and API with a seeded catalogue",
        "pnpm lint && pnpm typecheck",
        "pnpm test:e2e",
    ),
}


def add_memory_text(memories: dict[str | None, MemoryFile]) -> None:
    """The user's own unlabelled lines, written with the initial MEMORY.md files."""
    first = memories[None].slots[0]
    first.extra += [("About", (line,)) for line in ABOUT]
    for group, descriptions in DESCRIPTIONS.items():
        slot = memories[group].slots[0]
        slot.extra += [("Architecture", (f"- {c}: {d}.",)) for c, d in descriptions.items()]
        block = ("Everyday commands:", "", "```sh", *COMMANDS[group], "```")
        slot.extra.append(("Commands", block))
