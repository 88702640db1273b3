"""No silent miss against raw FTS5 (issue 27, item 3).

The oracle: the same index, queried by raw FTS5 with the query as one quoted
string (``MATCH '"C++"'``). For every word of a generated list (programming names
such as ``c#`` and ``C++``, Roman numerals, numbers, accents typed NFC and NFD,
Turkish İ, CJK, short words), in upper, title and NFD spellings, under unicode61,
porter and trigram and in both keyword modes: whenever raw FTS5 finds a chunk,
memlab's candidates contain one of those chunks or the search is ``degraded``
with a reason. c0's own results are unchanged: where its rules drop a word
(shorter than 2 bytes, all numeric) the search is flagged, not altered.
"""

from __future__ import annotations

import os
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from memlab.retrieval.candidates import gather
from memlab.store.store import MemoryStore
from tests.conftest import T0, docs_say, write

BASE = """
c# C++ F# c c99 x86 x86_64 node.js .net r2d2 go js ts py ai ml ui ux qa ci cd k8s
Ⅻ Ⅳ ⅷ ½ ² 2024 42 3.14 v2 ipv6 utf-8 e-mail o'reilly
école café naïve über straße façade résumé crème jalapeño smörgåsbord ångström
İstanbul izmir ılık Ωmega αβγ δ ж москва 東京 下周 日本語 한국어 हिन्दी العربية
deadline pytest redis docker compose kubernetes helm payments retried charges frontend
postgres sqlite fts5 trigram porter unicode token keyword vector embedding chunk
""".split()


def spellings(word: str) -> list[str]:
    nfd = unicodedata.normalize("NFD", word)
    forms = [word, word.upper(), word.title(), word.lower(), nfd, nfd.upper(), f"{word}?"]
    return list(dict.fromkeys(forms))


def word_list() -> list[str]:
    return list(dict.fromkeys(s for w in BASE for s in spellings(w)))


def documents() -> dict[str, str]:
    """Each base word in a document, NFC, and in its twin written NFD."""
    docs = {}
    for i in range(0, len(BASE), 6):
        words = BASE[i : i + 6]
        text = f"# Notes {i}\n\nWe talked about {', '.join(words)} today.\n"
        docs[f"notes-{i:03d}.md"] = text
        docs[f"nfd-{i:03d}.md"] = unicodedata.normalize("NFD", text)
    return docs


@pytest.fixture(scope="module", params=["unicode61", "porter", "trigram"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> MemoryStore:
    root = tmp_path_factory.mktemp(request.param) / "memory"
    for name, text in documents().items():
        write(root, name, text)
    s = MemoryStore.open(root, index_path=root.parent / "i.sqlite", tokenizer=request.param)
    s.build(now=T0)
    yield s
    s.close()


def raw_paths(store: MemoryStore, query: str) -> set[str]:
    quoted = '"' + query.replace('"', '""') + '"'
    try:
        rows = store.index.db.execute(
            "SELECT c.path FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid "
            "WHERE chunks_fts MATCH ?",
            (quoted,),
        ).fetchall()
    except Exception:  # raw FTS5 rejects some strings: then it matches nothing
        return set()
    return {str(r[0]) for r in rows}


def oracle(store: MemoryStore, words: list[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for word in words:
        raw = raw_paths(store, word)
        counts["raw matched"] += bool(raw)
        for mode in ("c0", "index"):
            got = gather(store.index, word, 18, keywords=mode)
            found = {row.path for row in got.rows} & raw
            if raw and not found:
                counts[f"{mode} degraded"] += got.degraded
                counts[f"{mode} silent"] += not got.degraded
                if not got.degraded:
                    counts[f"{mode} silent: {word}"] += 1
    return counts


def test_no_silent_miss_against_raw_fts5(store: MemoryStore) -> None:
    words = word_list()
    assert len(words) >= 300 and {"c#", "C++", "Ⅻ", unicodedata.normalize("NFD", "école")} <= set(
        words
    )
    counts = oracle(store, words)
    silent = {k: v for k, v in counts.items() if "silent" in k and v}
    assert counts["raw matched"] > 100 and silent == {}, silent


@pytest.mark.slow
def test_no_silent_miss_on_a_larger_list(store: MemoryStore) -> None:
    """Every spelling with punctuation around it as well (``MEMLAB_ORACLE_x`` repeats)."""
    repeats = int(os.environ.get("MEMLAB_ORACLE_REPEATS", "1"))
    decorated = [f"{left}{w}{right}" for w in word_list() for left, right in
                 (("", "?"), ("(", ")"), ('"', '"'), ("the ", ""))] * repeats  # fmt: skip
    counts = oracle(store, decorated)
    silent = {k: v for k, v in counts.items() if "silent" in k and v}
    assert silent == {}, silent


def test_the_readme_states_it() -> None:
    assert docs_say("guarantees.md", f"{len(word_list())} words per tokenizer (`c#`, `C++`, `Ⅻ`,")
    assert docs_say("guarantees.md", "left 0 silent misses in either keyword mode")


def test_c0_results_are_unchanged_only_flagged(store: MemoryStore) -> None:
    """``C++``: c0's rules drop ``c`` (1 byte); nothing is searched by text, as in c0,
    and the search says so."""
    got = gather(store.index, "C++", 18, keywords="c0")
    assert got.degraded and any("no keywords survive extraction" in r for r in got.reasons)
    assert not any(row.fts_rank is not None for row in got.rows if hasattr(row, "fts_rank"))


def test_trigram_finds_nfd_text_and_nfd_queries(store: MemoryStore, tmp_path: Path) -> None:
    if store.index.tokenizer != "trigram":
        pytest.skip("unicode61 and porter fold accents")
    nfd = unicodedata.normalize("NFD", "école")
    for query in ("école", nfd):
        paths = {r.path for r in gather(store.index, query, 18, keywords="index").rows}
        assert any(p.startswith("nfd-") for p in paths) and any(
            p.startswith("notes-") for p in paths
        ), (query, paths)
