"""Questions the memory cannot answer ("abstention"); some share many keywords with it."""
# ruff: noqa: E501

from __future__ import annotations

import random

from memlab.datasets.generator.spec import Catalog, QuerySpec

# (query, strings that must not occur anywhere in the memory, tags)
# fmt: off
ABSTENTION: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("what is the Kubernetes namespace of the analytics cluster", ("analytics", "namespace"), ()),
    ("how do I rotate the TLS certificate of the mobile backend", ("TLS", "mobile", "certificate"), ()),
    ("which schema registry does the data team use", ("schema registry", "data team"), ()),
    ("who approved the SOC 2 audit scope", ("SOC 2", "SOC2"), ()),
    ("what is the office wifi password", ("wifi", "wi-fi"), ()),
    ("how do I build the iOS app", ("iOS",), ()),
    ("how many story points does the team commit to per sprint", ("story point", "sprint"), ()),
    ("what is the name of the Terraform state bucket", ("terraform",), ()),
    ("which BI tool do product managers use for dashboards", ("BI tool", "Looker", "Tableau", "Metabase"), ()),
    ("how do I configure the VPN client", ("VPN",), ()),
    ("what is this quarter's cloud spend budget", ("cloud spend", "spend budget"), ("near-miss",)),
    ("which Rust crates does the fraud service use", ("rust", "crate"), ("near-miss",)),
    ("how are Android push notifications sent", ("android", "push notification"), ("near-miss",)),
    ("what did we decide about moving to AWS Graviton", ("graviton",), ()),
    ("where is the GDPR data processing agreement stored", ("GDPR", "processing agreement"), ()),
    ("how do I get access to the Snowflake warehouse", ("snowflake", "warehouse"), ()),
    ("which Kafka consumer group does the reports service use", ("consumer group",), ("near-miss",)),
    ("what port does the payouts service listen on", ("payouts service listens",), ("near-miss",)),
    ("who is the on-call engineer this week", ("on-call engineer this week", "on call this week"), ("near-miss",)),
    ("客服系统用的是哪家供应商", ("供应商",), ("zh",)),
    ("移动端的崩溃率是多少", ("崩溃率", "移动端"), ("zh",)),
)
# fmt: on


def build(rng: random.Random) -> Catalog:
    del rng
    cat = Catalog()
    for text, absent, tags in ABSTENTION:
        cat.queries.append(QuerySpec(text, "abstention", (), tags=tags, absent_terms=absent))
    return cat
