"""Values written into facts: ports, paths, names, durations — unique where they must be.

A value is what a fact states about a component ("7431", "config/ledger/cedar.yaml",
"45s"). ``Values.make(kind, comp)`` draws one. Identifiers (paths, names, ports,
versions) are unique across the whole dataset and never a substring of one
another, so they can serve alone as a query's answer term; small quantities
("45s", "6 replicas") repeat across components and are only an answer together
with the component's name (``Value.terms``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from memlab.datasets.generator.world import Workspace

WORDS = (
    "amber basalt cedar ember fjord garnet harbor indigo juniper kestrel lagoon maple nimbus "
    "onyx pebble quartz raven sierra tundra umber violet willow yarrow zephyr acorn birch "
    "cobalt dune flint glacier hazel iris jade kelp lumen mesa nectar orchid pine reef slate "
    "thistle upland vale wren yucca zinc alder bramble canyon falcon grove heron ibis jasper "
    "kite lark marsh oak plume ridge sage topaz umbra vertex bay cove dell elm fern gale holly "
    "isle kiln lynx moss opal rook sable tern vega wisp aspen bison condor dahlia egret finch "
    "gorse hollow inlet jackal koala lotus magpie nettle osprey puffin quokka rowan sorrel "
    "tamarind urchin vireo walnut"
).split()
REGIONS = ("eu-west-1", "eu-central-1", "us-east-2", "us-west-2", "ap-southeast-1", "eu-north-1")


@dataclass(frozen=True)
class Value:
    text: str  # the value as written ({v})
    unique: bool  # unique across the dataset: an answer term on its own
    extra: dict[str, str] = field(default_factory=dict)  # more template fields (thing, lib)

    def terms(self, comp: str) -> tuple[tuple[str, ...], ...]:
        return ((self.text,),) if self.unique else ((comp, self.text),)

    def fields(self, comp: str) -> dict[str, str]:
        return {"comp": comp, "v": self.text, **self.extra}


class Values:
    """Draws values; identifiers never repeat and never contain one another."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()
        self.per_comp: dict[tuple[str, str], set[str]] = {}  # non-unique values per component

    def unique(self, make: Callable[[], str]) -> str:
        for _ in range(500):
            text = make()
            if text not in self.used and not any(text in u or u in text for u in self.used):
                self.used.add(text)
                return text
        raise RuntimeError("could not draw a unique value")  # pragma: no cover

    def word(self) -> str:
        return self.rng.choice(WORDS)

    def make(self, kind: str, ws: Workspace, comp: str) -> Value:
        """A value; a repeatable one never overlaps another value of the same component."""
        taken = self.per_comp.setdefault((ws.group, comp), set())
        for _ in range(500):
            value = MAKERS[kind](self, ws, comp)
            if value.unique:
                return value
            if not any(value.text in t or t in value.text for t in taken):
                taken.add(value.text)
                return value
        raise RuntimeError(f"no free value of {kind} for {comp}")  # pragma: no cover


def _u(make: Callable[[Values, Workspace, str], str]) -> Callable[[Values, Workspace, str], Value]:
    return lambda vs, ws, comp: Value(vs.unique(lambda: make(vs, ws, comp)), True)


def _n(make: Callable[[Values, Workspace, str], str]) -> Callable[[Values, Workspace, str], Value]:
    return lambda vs, ws, comp: Value(make(vs, ws, comp), False)


def _thing(vs: Values, ws: Workspace, comp: str, value: Value) -> Value:
    return Value(value.text, value.unique, {"thing": vs.rng.choice(ws.things)})


_TEST: dict[str, Callable[[Values, Workspace, str], str]] = {
    "ts": lambda vs, ws, c: f"pnpm --filter @{ws.prefix}/{c} test:{vs.word()}",
    "py": lambda vs, ws, c: f"pytest tests/{c} -m {vs.word()}",
    "go": lambda vs, ws, c: f"go test ./internal/{c}/... -run {vs.word().capitalize()}",
}
_DEPLOY: dict[str, Callable[[Values, Workspace, str], str]] = {
    "ts": lambda vs, ws, c: f"{ws.prefix}ctl deploy {c} --{vs.word()}",
    "py": lambda vs, ws, c: f"{ws.prefix}ctl release {c} --{vs.word()}",
    "go": lambda vs, ws, c: f"{ws.group}-ops ship {c} --{vs.word()}",
}
_EXT = {"ts": "yaml", "py": "toml", "go": "hcl"}


def _version(vs: Values, ws: Workspace, comp: str) -> Value:
    r = vs.rng
    text = vs.unique(lambda: f"{r.randint(1, 9)}.{r.randint(0, 29)}.{r.randint(0, 19)}")
    return Value(text, True, {"lib": r.choice(ws.libs)})


MAKERS: dict[str, Callable[[Values, Workspace, str], Value]] = {
    "port": _u(lambda vs, ws, c: str(vs.rng.randint(7100, 8999))),
    "owner": _n(lambda vs, ws, c: vs.rng.choice(ws.people)),
    "reviewer": _n(lambda vs, ws, c: vs.rng.choice(ws.people)),
    "timeout": _n(lambda vs, ws, c: f"{vs.rng.choice((4, 6, 8, 12, 15, 20, 25, 40, 45, 75))}s"),
    "retries": _n(lambda vs, ws, c: f"{vs.rng.randint(2, 12)} attempts"),
    "replicas": _n(lambda vs, ws, c: f"{vs.rng.randint(2, 24)} replicas"),
    "memlimit": _n(lambda vs, ws, c: f"{vs.rng.choice((256, 384, 640, 768, 1536, 3072))} MiB"),
    "cache": lambda vs, ws, c: _thing(
        vs, ws, c, Value(f"{vs.rng.choice((2, 3, 5, 7, 9, 11, 13, 17, 25))} minutes", False)
    ),
    "schedule": _n(
        lambda vs, ws, c: f"{vs.rng.randint(0, 5):02d}:{vs.rng.choice((5, 20, 35, 50)):02d} UTC"
    ),
    "health": _u(
        lambda vs, ws, c: vs.rng.choice(
            ("/internal/{w}/ready", "/_/{w}/healthz", "/{w}/live")
        ).format(w=vs.word())
    ),
    "dashboard": _u(lambda vs, ws, c: f"{ws.prefix}-{c}-{vs.word()}"),
    "alerts": _u(lambda vs, ws, c: f"#{ws.prefix}-{c}-{vs.word()}-alerts"),
    "runbook": _u(lambda vs, ws, c: f"docs/runbooks/{c}-{vs.word()}.md"),
    "config": _u(lambda vs, ws, c: f"config/{c}/{vs.word()}.{_EXT[ws.lang]}"),
    "envvar": _u(lambda vs, ws, c: f"{c.upper()}_{vs.word().upper()}_DSN"),
    "testcmd": _u(lambda vs, ws, c: _TEST[ws.lang](vs, ws, c)),
    "logs": _u(lambda vs, ws, c: f"logs-{ws.prefix}-{c}-{vs.word()}"),
    "topic": _u(lambda vs, ws, c: f"{ws.prefix}.{c}.{vs.word()}.v{vs.rng.randint(1, 4)}"),
    "table": lambda vs, ws, c: _thing(
        vs, ws, c, Value(vs.unique(lambda: f"{c}_{vs.word()}"), True)
    ),
    "flag": _u(lambda vs, ws, c: f"{c}-{vs.word()}-enabled"),
    "batch": _n(
        lambda vs, ws, c: f"{vs.rng.choice((64, 150, 250, 400, 600, 750, 1200, 2500))} records"
    ),
    "ratelimit": _n(
        lambda vs, ws, c: f"{vs.rng.choice((30, 90, 120, 300, 450, 900))} requests per minute"
    ),
    "secret": _u(lambda vs, ws, c: f"secret/{ws.prefix}/{c}/{vs.word()}"),
    "slo": _n(lambda vs, ws, c: f"{vs.rng.choice((80, 120, 180, 250, 350, 600))} ms"),
    "region": _n(lambda vs, ws, c: vs.rng.choice(REGIONS)),
    "bucket": _u(lambda vs, ws, c: f"{ws.prefix}-{c}-{vs.word()}-exports"),
    "version": _version,
    "deploy": _u(lambda vs, ws, c: _DEPLOY[ws.lang](vs, ws, c)),
}
