"""Query keywords and the index's tokenizer (issue 12, item 7; issue 13, item 10).

c0's keywords (runs of Rust's ``char::is_alphanumeric``) miss NFD accents, Turkish İ
and (under the trigram tokenizer) every keyword shorter than 3 characters; they split
Devanagari words at viramas, but keep vowel signs inside a word (issue 31). The
default keeps c0's results and marks those searches degraded with the reason;
``keywords = "index"`` reads the query with the index's own tokenizer (and a LIKE
fallback for short trigram keywords) and finds them. Real SQLite throughout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.config import SearchConfig
from memlab.errors import ConfigError
from memlab.eval.runs.rankers import keyword_mode
from memlab.retrieval.candidates import gather
from memlab.retrieval.candidates_batch import build_batch
from memlab.retrieval.keywords import extract_keywords
from memlab.retrieval.pipeline import hits_of, search
from memlab.retrieval.ranking import rank_batch
from memlab.store.store import MemoryStore
from tests.conftest import T0, write

DOCS = {
    "ecole.md": "# School\n\nL'école de commerce ouvre en septembre.\n",
    "istanbul.md": "# Travel\n\nThe İstanbul office opens on Monday.\n",
    "hindi.md": "# Docs\n\nहिन्दी भाषा documentation lives in the wiki.\n",
    "letters.md": "# Other\n\nThe letters द, न and ह, in another order.\n",
    "tokyo.md": "# 出差\n\n下周去东京开会，记得带护照。\n",
    "go.md": "# Stack\n\nWe use Go and JS on the backend.\n",
}
C0 = SearchConfig(min_score=0.0)
INDEX = SearchConfig(min_score=0.0, keywords="index")


@pytest.fixture(scope="module", params=["unicode61", "porter", "trigram"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> MemoryStore:
    root = tmp_path_factory.mktemp(request.param) / "memory"
    for name, text in DOCS.items():
        write(root, name, text)
    s = MemoryStore.open(root, index_path=root.parent / "i.sqlite", tokenizer=request.param)
    s.build(now=T0)
    yield s
    s.close()


def files(result: object) -> set[str]:
    return {h.path for h in result.hits}  # type: ignore[attr-defined]


def test_nfd_accents(store: MemoryStore) -> None:
    query = "e\u0301cole"  # é typed as e + combining acute
    if store.index.tokenizer == "trigram":
        pytest.skip("trigram matches substrings: 'cole' is found either way")
    c0 = search(store, query, C0, T0, record_access=False)
    assert files(c0) == set() and c0.degraded and "ecole" in c0.reasons[0]
    assert files(search(store, query, INDEX, T0, record_access=False)) == {"ecole.md"}


def test_turkish_dotted_capital_i(store: MemoryStore) -> None:
    if store.index.tokenizer == "trigram":
        pytest.skip("trigram compares İ as typed")
    c0 = search(store, "İstanbul", C0, T0, record_access=False)
    assert files(c0) == set() and c0.degraded and "istanbul" in c0.reasons[0]
    assert files(search(store, "İstanbul", INDEX, T0, record_access=False)) == {"istanbul.md"}


def test_devanagari_is_split_at_the_virama_by_c0(store: MemoryStore) -> None:
    """c0 splits हिन्दी at its virama into हिन and दी; unicode61 reads दी as the letter द,
    found in any text with it. The option searches the word as a phrase (unicode61) or
    substring (trigram)."""
    assert extract_keywords("हिन्दी") == ["हिन", "दी"]
    c0 = search(store, "हिन्दी", C0, T0, record_access=False)
    found = files(search(store, "हिन्दी", INDEX, T0, record_access=False))
    if store.index.tokenizer == "trigram":
        assert files(c0) == {"hindi.md"} and c0.degraded  # दी: shorter than 3
    else:
        assert files(c0) == {"hindi.md", "letters.md"} and c0.degraded
    assert found == {"hindi.md"}


@pytest.mark.parametrize("tokenizer", ["unicode61", "porter", "trigram"])
def test_vowel_signs_stay_inside_a_c0_keyword(tmp_path: Path, tokenizer: str) -> None:
    """Issue 31: भाषा (bhāṣā) and भारत (bhārat) share the letter भ and the vowel sign ा.
    c0 keeps भाषा whole (the vowel sign is Alphabetic), so it finds only its own note."""
    root = tmp_path / "memory"
    write(root, "bhasha.md", "# Language\n\nहिन्दी भाषा सीखना है।\n")
    write(root, "bharat.md", "# Country\n\nभारत एक देश है।\n")
    assert extract_keywords("भाषा") == ["भाषा"]
    with MemoryStore.open(root, index_path=tmp_path / "i.sqlite", tokenizer=tokenizer) as store:
        store.build(now=T0)
        c0 = search(store, "भाषा", C0, T0, record_access=False)
        assert files(c0) == {"bhasha.md"} and not c0.degraded
        assert files(search(store, "भारत", C0, T0, record_access=False)) == {"bharat.md"}


@pytest.mark.parametrize("query", ["东京", "Go", "JS"])
def test_short_keywords_under_trigram(store: MemoryStore, query: str) -> None:
    c0 = search(store, query, C0, T0, record_access=False)
    expected = {"东京": "tokyo.md", "Go": "go.md", "JS": "go.md"}[query]
    if store.index.tokenizer == "trigram":
        assert files(c0) == set() and c0.degraded and "shorter than 3" in c0.reasons[0]
        assert files(search(store, query, INDEX, T0, record_access=False)) == {expected}
    elif query != "东京":  # unicode61 keeps a CJK run whole: 东京 alone is not a token
        assert files(c0) == {expected} and not c0.degraded


def test_plain_queries_are_not_degraded_and_modes_agree(store: MemoryStore) -> None:
    for query in ("backend stack", "office opens Monday", "my_function variable"):
        c0 = search(store, query, C0, T0, record_access=False)
        index = search(store, query, INDEX, T0, record_access=False)
        assert not c0.degraded and files(c0) == files(index)


def test_like_rows_keep_the_prefix_property(tmp_path: Path) -> None:
    """Candidates gathered once at a wide limit, rescored for any smaller one, equal a
    search at that limit (DESIGN invariant 1) — with LIKE rows in the lists."""
    root = tmp_path / "memory"
    for i in range(40):
        write(root, f"n{i:02d}.md", f"# Note {i}\n\nGo note {i}" + (" golang" * (i % 3)) + "\n")
    with MemoryStore.open(root, index_path=tmp_path / "i.sqlite", tokenizer="trigram") as store:
        store.build(now=T0)
        for query in ("Go", "Go golang", "JS"):
            wide = gather(store.index, query, 90, keywords="index")
            batch = build_batch([wide])
            for max_results in (1, 2, 5, 13, 30):
                cfg = SearchConfig(min_score=0.0, keywords="index", max_results=max_results)
                live = search(store, query, cfg, T0, record_access=False).hits
                assert hits_of(rank_batch(batch, cfg, T0), 0) == live


def test_one_keyword_reading_per_candidate_batch() -> None:
    assert keyword_mode([C0, SearchConfig()]) == "c0"
    assert keyword_mode([INDEX]) == "index"
    with pytest.raises(ConfigError, match="read query keywords differently"):
        keyword_mode([C0, INDEX])
    with pytest.raises(ConfigError, match="did you mean 'index'"):
        SearchConfig(keywords="indx")
