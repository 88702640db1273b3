"""``abstention``: questions nothing in the memory answers.

* entity questions — about things the memory never mentions (each absent term
  occurs nowhere, case-insensitive, whole words);
* near-misses (tag ``near-miss``) — a kind question about a component whose
  value was never written: its words (the component, "port", "owner") occur all
  over the memory, but no line holds the component together with any of the
  kind's ``markers`` (checked on the rendered text, so the pairs are chosen after
  rendering).
"""

from __future__ import annotations

import random
import re

from memlab.datasets.generator.cat_kinds import KINDS
from memlab.datasets.generator.draft import DAY, Query
from memlab.datasets.generator.kinds import Kind
from memlab.datasets.generator.label_checks import TextIndex
from memlab.datasets.generator.world import END, START, WORKSPACES

ENTITY: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("how do I rotate the TLS certificate of the mobile backend", ("mobile",)),
    ("which schema registry does the data team use", ("schema registry", "data team")),
    ("who approved the SOC 2 audit scope", ("SOC 2",)),
    ("what is the office wifi password", ("wifi", "wi-fi")),
    ("how do I build the iOS app", ("iOS",)),
    ("how many story points does the team commit to per sprint", ("story points", "sprint")),
    ("what is the name of the Terraform state bucket", ("terraform",)),
    (
        "which BI tool do product managers use for dashboards",
        ("BI tool", "Looker", "Tableau", "Metabase"),
    ),
    ("how do I configure the VPN client", ("VPN",)),
    ("what is this quarter's cloud spend budget", ("cloud spend",)),
    ("which Rust crates does the fraud service use", ("rust", "crates")),
    ("how are Android push notifications sent", ("android", "push notifications")),
    ("what did we decide about moving to AWS Graviton", ("graviton",)),
    ("where is the GDPR data processing agreement stored", ("GDPR", "processing agreement")),
    ("how do I get access to the Snowflake warehouse", ("snowflake",)),
    ("where is the Datadog API key", ("datadog",)),
    ("which GraphQL schema does the gateway expose", ("graphql",)),
    ("how do I run the Cypress end-to-end suite", ("cypress",)),
    ("which Elasticsearch version do we run", ("elasticsearch",)),
    ("who is our Stripe account manager", ("stripe", "account manager")),
    ("what is the Jira project key for the mobile team", ("jira",)),
    ("how do I deploy to Heroku", ("heroku",)),
    ("what is the MongoDB connection string", ("mongodb", "mongo")),
    ("which CDN serves the marketing site", ("marketing site",)),
    ("how much does the Twilio SMS plan cost", ("twilio",)),
    (
        "what is the Kubernetes namespace of the analytics cluster",
        ("analytics cluster", "namespace"),
    ),
    ("which Airflow pool limits the warehouse DAGs", ("airflow pool",)),
    ("when is the next penetration test", ("penetration test", "pentest")),
    ("how do I reset my Okta MFA device", ("okta", "MFA")),
    ("which Figma file has the dashboard designs", ("figma",)),
    ("what is the Redshift cluster size", ("redshift",)),
    ("where is the Helm chart for the scorer", ("helm",)),
    ("how do I enable Bluetooth pairing on the devices", ("bluetooth",)),
    ("what did the customer survey say about onboarding", ("survey",)),
    ("which Kotlin version does the Android app use", ("kotlin",)),
    ("how do I request a parking spot at the office", ("parking",)),
    ("what is the LoRaWAN frequency plan", ("lorawan",)),
    ("which team owns the HR portal", ("HR portal",)),
    ("who is the legal contact for partner contracts", ("legal", "contracts")),
    (
        "what is the SLA credit policy for enterprise customers",
        ("SLA credit", "enterprise customers"),
    ),
    ("客服系统用的是哪家供应商", ("供应商", "客服系统")),
    ("移动端的崩溃率是多少", ("崩溃率", "移动端")),
    ("年会在哪里举办", ("年会",)),
)


def _as_of(rng: random.Random) -> float:
    return float(int(rng.uniform(START + 21 * DAY, END) // 60) * 60)


def entity_queries(rng: random.Random) -> list[Query]:
    out = []
    for text, absent in ENTITY:
        group = rng.choice(WORKSPACES).group
        tags = ("entity", "zh") if re.search("[\u4e00-\u9fff]", text) else ("entity",)
        out.append(
            Query(
                "abstention",
                group,
                text,
                _as_of(rng),
                None,
                tags=tags,
                absent_terms=tuple((t,) for t in absent),
            )
        )
    return out


def reserve_pairs(
    rng: random.Random, used: dict[str, set[tuple[str, str]]], per_workspace: int
) -> dict[str, set[tuple[str, str]]]:
    """Set aside (component, kind) pairs no category may write about (marked used)."""
    reserved = {}
    for ws in WORKSPACES:
        pairs = [(c, k.key) for c in ws.comps for k in KINDS if k.key != "version"]
        reserved[ws.group] = set(rng.sample(pairs, per_workspace))
        used.setdefault(ws.group, set()).update(reserved[ws.group])
    return reserved


def near_miss_queries(
    rng: random.Random,
    count: int,
    reserved: dict[str, set[tuple[str, str]]],
    lines: dict[str, list[str]],
) -> list[Query]:
    """Kind questions on reserved pairs whose markers never meet the component in a line."""
    pools = []
    for ws in WORKSPACES:
        candidates = []
        index = TextIndex(lines[ws.group])
        markers = {m: index.lines_with(m) for kind in KINDS for m in kind.markers}
        for comp, key in sorted(reserved[ws.group]):
            kind = next(k for k in KINDS if k.key == key)
            holding = index.lines_with(comp)
            if not any(holding & markers[m] for m in kind.markers):
                candidates.append((ws.group, comp, kind))
        rng.shuffle(candidates)
        pools.append(candidates)
    out: list[Query] = []
    while len(out) < count and any(pools):  # round robin over the workspaces
        for pool in pools:
            if pool and len(out) < count:
                out.append(_near_miss(rng, *pool.pop()))
    return out


def _near_miss(rng: random.Random, group: str, comp: str, kind: Kind) -> Query:
    fields = {"comp": comp, "thing": "records", "lib": "its main library", "v": ""}
    return Query(
        "abstention",
        group,
        rng.choice(kind.asks).format(**fields),
        _as_of(rng),
        None,
        tags=("near-miss", f"kind-{kind.key}"),
        absent_terms=tuple((comp, m) for m in kind.markers),
    )
