"""Hostile queries through the real search, per tokenizer and keyword mode (issue 12).

* Hostile text (FTS5 syntax, quotes, NUL, lone surrogates, combining marks, RTL and
  CJK text, emoji): never an exception; hits well-formed; a c0 search is degraded
  only with a keyword reason, an ``index`` search never.
* Decorated words (case, NFD, Turkish İ, punctuation around them) of words in the
  memory: ``keywords = "index"`` always gathers the chunk holding the word; every
  c0 search that misses it is marked degraded.

A few hundred queries in the default suite; 1,000 hostile and 1,000 decorated queries
per tokenizer in the slow suite, and 10,000 and 3,000 under `make soak`, with the counts
printed.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlab.config import SearchConfig
from memlab.retrieval.candidates import gather
from memlab.retrieval.pipeline import search
from memlab.store.store import MemoryStore
from tests.conftest import T0, campaign_size, docs_say, write

DOCS = {
    "ecole.md": "# School\n\nL'école de commerce ouvre en septembre.\n",
    "istanbul.md": "# Travel\n\nThe İstanbul office opens on Monday, said Işık.\n",
    "tokyo.md": "# 出差\n\n下周去东京开会，记得带护照。\n",
    "stack.md": "# Stack\n\nWe use Go and JS on the backend; Straße renamed to Strasse.\n",
    "notes.md": "# Notes\n\n## Deploy\n\nThe deploy pipeline runs migrations first.\n",
}
WORDS = {  # word → the file holding it
    "école": "ecole.md",
    "commerce": "ecole.md",
    "septembre": "ecole.md",
    "istanbul": "istanbul.md",
    "office": "istanbul.md",
    "monday": "istanbul.md",
    "东京": "tokyo.md",
    "护照": "tokyo.md",
    "go": "stack.md",
    "js": "stack.md",
    "backend": "stack.md",
    "deploy": "notes.md",
    "pipeline": "notes.md",
    "migrations": "notes.md",
}
HOSTILE = [
    '"', "'", "*", "^", ":", "(", ")", "{", "}", "[", "]", "-", "+", "\\", "%", "_",
    "NEAR", "NEAR(a b, 2)", "AND", "OR", "NOT", "text:", "col:x", '"unterminated',
    "\x00", "\ud800", "\udcff", "e\u0301", "İ", "ı", "हिन्दी", "东京", "🙂", "\u200b",
    "\ufeff", "\u202e", "ß", "ﬁ", "a" * 300, "%_%", "' OR 1=1 --",
]  # fmt: skip
CHARS = st.characters(exclude_categories=())  # every code point, surrogates included
QUERIES = st.lists(
    st.one_of(st.sampled_from(HOSTILE), st.text(CHARS, max_size=12)), max_size=10
).map(" ".join)
MODES = {"c0": SearchConfig(min_score=0.0), "index": SearchConfig(min_score=0.0, keywords="index")}


@pytest.fixture(scope="module", params=["unicode61", "porter", "trigram"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> MemoryStore:
    root = tmp_path_factory.mktemp(request.param) / "memory"
    for name, text in DOCS.items():
        write(root, name, text)
    s = MemoryStore.open(root, index_path=root.parent / "i.sqlite", tokenizer=request.param)
    s.build(now=T0)
    yield s
    s.close()


def check_hostile(store: MemoryStore, query: str, counts: Counter[str]) -> None:
    ids = {r[0] for r in store.index.db.execute("SELECT id FROM chunks")}
    for mode, cfg in MODES.items():
        result = search(store, query, cfg, T0, record_access=False)
        counts["searches"] += 1
        assert len(result.hits) <= cfg.max_results
        assert all(h.chunk_id in ids and math.isfinite(h.score) for h in result.hits)
        assert all(0.0 <= h.score <= 1.0 for h in result.hits)
        assert result.degraded == bool(result.reasons)
        dropped = [r for r in result.reasons if r.startswith("no keywords survive extraction")]
        reasons = [r for r in result.reasons if r not in dropped]  # c0's rules drop every word
        if mode == "index":
            assert not reasons, result.reasons
        else:
            assert all("search.keywords='index'" in r for r in reasons), result.reasons
            counts["c0 degraded"] += result.degraded


def decorate(word: str, tokenizer: str, draw: Callable[..., object]) -> str:
    """The word as a user might type it: case, NFD/NFC, Turkish İ, punctuation around."""
    out = word
    if draw(st.booleans()):
        out = out.upper() if draw(st.booleans()) else out.title()
    if tokenizer != "trigram":  # trigram compares code points as typed (no folding)
        if draw(st.booleans()):
            out = unicodedata.normalize("NFD", out)
        if "i" in out.lower() and draw(st.booleans()):
            out = out.replace("i", "İ").replace("I", "İ")
    left = draw(st.sampled_from(["", " ", '"', "(", "¿", "«", "*", "—", "the "]))
    right = draw(st.sampled_from(["", "?", '"', ")", "!", "»", "…", " please", "."]))
    return f"{left}{out}{right}"


def words_for(tokenizer: str) -> list[str]:
    """unicode61 and porter keep a CJK run whole (下周去东京开会 is one token), so no
    keyword reading finds 东京 inside it: the trigram tokenizer is the fix for that. The
    trigram tokenizer does not fold İ to i: 'istanbul' is not in 'İstanbul' for it."""
    if tokenizer == "trigram":
        return sorted(w for w in WORDS if w != "istanbul")
    return sorted(w for w in WORDS if w.isascii() or w == "école")


@st.composite
def decorated(draw: Callable[..., object], tokenizer: str) -> tuple[str, str]:
    word = str(draw(st.sampled_from(words_for(tokenizer))))
    return decorate(word, tokenizer, draw), WORDS[word]


def check_decorated(store: MemoryStore, query: str, path: str, counts: Counter[str]) -> None:
    paths = {}
    for mode in ("c0", "index"):
        got = gather(store.index, query, 18, keywords=mode)
        paths[mode] = {row.path for row in got.rows}
        if mode == "c0":
            missed = path not in paths[mode]
            counts["decorated"] += 1
            counts["c0 missed"] += missed
            assert not missed or got.degraded, (query, "a c0 miss must be marked degraded")
    assert path in paths["index"], (query, paths)


def run_campaign(store: MemoryStore, hostile: int, words: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    tokenizer = store.index.tokenizer
    common = {"deadline": None, "derandomize": True, "database": None}
    health = [HealthCheck.too_slow, HealthCheck.data_too_large]

    @settings(max_examples=hostile, suppress_health_check=health, **common)
    @given(QUERIES)
    def hostile_queries(query: str) -> None:
        check_hostile(store, query, counts)

    @settings(max_examples=words, suppress_health_check=health, **common)
    @given(decorated(tokenizer))
    def decorated_words(case: tuple[str, str]) -> None:
        check_decorated(store, case[0], case[1], counts)

    hostile_queries()
    decorated_words()
    return counts


def test_fuzz_default(store: MemoryStore) -> None:
    counts = run_campaign(store, hostile=120, words=60)
    assert counts["searches"] >= 240 and counts["decorated"] >= 60


@pytest.mark.slow
def test_fuzz_campaign(store: MemoryStore, capsys: pytest.CaptureFixture[str]) -> None:
    assert docs_say("guarantees.md", "10,000 hostile queries per tokenizer")
    hostile = campaign_size(ci=1_000, soak=10_000)
    counts = run_campaign(store, hostile=hostile, words=campaign_size(ci=1_000, soak=3_000))
    assert counts["searches"] >= 2 * hostile
    miss = counts["c0 missed"] / counts["decorated"]
    quoted = {"unicode61": 22.5, "porter": 22.5, "trigram": 31.8}[store.index.tokenizer]
    assert docs_say("guarantees.md", f"{quoted} %")  # the figure the docs quote
    assert abs(100 * miss - quoted) < 5
    with capsys.disabled():
        print(
            f"\nfuzz [{store.index.tokenizer}]: {counts['searches'] // 2} hostile queries × 2 "
            f"keyword modes, 0 exceptions, {counts['c0 degraded']} c0 searches degraded; "
            f"{counts['decorated']} decorated words: c0 missed {counts['c0 missed']} "
            f"({100 * miss:.1f} %, every miss marked degraded), keywords='index' missed 0"
        )
