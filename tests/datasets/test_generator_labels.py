"""Labels of the generated dataset: right by construction, checked, and kept by Dream."""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections import defaultdict
from itertools import combinations

import pytest

from memlab.datasets.generator import Generated, generate
from memlab.datasets.generator.draft import DAY, HOUR
from memlab.datasets.generator.label_checks import TextIndex, check_labels
from memlab.datasets.generator.phrases import time_phrase
from memlab.datasets.generator.world import WORKSPACES
from memlab.dream.inputs import EXISTING_HEADER, SESSION_SEPARATOR, session_header
from memlab.dream.offline import consolidate_text
from memlab.errors import DatasetError
from memlab.retrieval.keywords import extract_keywords
from memlab.store.chunker import chunk_markdown
from memlab.text import jaccard, snippet_tokens
from memlab.timefmt import utc_seconds


@pytest.fixture(scope="module")
def gen() -> Generated:
    return generate()


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[1][:-3]


def test_every_fact_is_one_line_written_once(gen: Generated) -> None:
    everything = "\n".join(gen.final_texts().values())
    assert len({f.id for f in gen.facts}) == len(gen.facts) >= 1500
    for fact in gen.facts:
        assert "\n" not in fact.text and everything.count(fact.text) == 1
        assert fact.text in gen.final_texts()[fact.path]


def test_label_checks_hold_for_more_seeds() -> None:
    for seed in (3, 11):
        generate(seed=seed)  # raises DatasetError if a label check fails


def _with_line(gen: Generated, group: str, line: str) -> Generated:
    """``gen`` with one more line written into the first session log of ``group``."""
    w = next(w for w in gen.writes if "/sessions/" in w.path and w.group == group)
    extra = dataclasses.replace(w, text=w.text + line + "\n")
    return dataclasses.replace(gen, writes=[extra if x is w else x for x in gen.writes])


def test_the_checks_catch_an_answer_outside_its_facts(gen: Generated) -> None:
    q = next(q for q in gen.queries if q.category == "fact" and len(q.answer_terms[0]) == 1)
    term = q.answer_terms[0][0]
    with pytest.raises(DatasetError, match=f"{q.qid}: answer terms"):
        check_labels(_with_line(gen, q.group, f"- By the way, {term} came up today."))


def test_the_checks_catch_an_abstention_term_in_the_memory(gen: Generated) -> None:
    q = next(q for q in gen.queries if q.category == "abstention")
    line = "- " + " and ".join(q.absent_terms[0]) + " were mentioned."
    with pytest.raises(DatasetError, match=f"{q.qid}: absent terms"):
        check_labels(_with_line(gen, q.group, line))


def test_text_index_matches_whole_words_only() -> None:
    index = TextIndex(["the report port is 45s", "ports: 145s or 2.45s", "港口在这里"])
    assert index.lines_with("port") == {0}
    assert index.lines_with("45s") == {0}
    assert index.lines_with("口在") == {2}  # no word boundaries in Chinese
    assert index.lines_with_all(["report", "45s"]) == {0}


def test_facts_survive_the_offline_dream_consolidator_verbatim(gen: Generated) -> None:
    texts = gen.final_texts()
    by_path: dict[str, list[str]] = defaultdict(list)
    for fact in gen.facts:
        by_path[fact.path].append(fact.text)
    for path, facts in by_path.items():
        header = session_header(_stem(path)) if "/sessions/" in path else EXISTING_HEADER
        out = consolidate_text(header + texts[path])
        missing = [f for f in facts if f not in out]
        assert not missing, (path, missing[:3])


def test_a_whole_workspace_history_consolidates_without_losing_a_fact(gen: Generated) -> None:
    """No fact replaces another (labels like ``Word: …`` never collide): merged without the
    budget, which lets the oldest items go (only the caps cut)."""
    texts = gen.final_texts()
    for ws in WORKSPACES:
        sessions = sorted((p for p in texts if p.startswith(f"{ws.dir}/sessions/")), key=_stem)
        parts = [EXISTING_HEADER + texts["MEMORY.md"] + texts[f"{ws.dir}/MEMORY.md"]]
        parts += [session_header(_stem(p)) + texts[p] for p in sessions]
        out = consolidate_text(SESSION_SEPARATOR.join(parts), budget=None)
        written = [f.text for f in gen.facts if f.group in (None, ws.group)]
        assert [f for f in written if f not in out] == []


def test_duplicates_are_near_identical_chunks_in_distinct_sessions(gen: Generated) -> None:
    texts = gen.final_texts()
    medians = []
    for q in (q for q in gen.queries if q.category == "duplicates"):
        copies = [t.fact for t in q.targets if t.nugget == 1]
        fixes = [t for t in q.targets if t.nugget == 2]
        assert len(copies) > 6 and len(fixes) == 1 and fixes[0].grade == 2
        assert len({f.path for f in copies}) == len(copies)  # each copy in its own session
        assert {t.grade for t in q.targets if t.nugget == 1} == {1}
        chunks = [
            next(c.text for c in chunk_markdown(texts[f.path]) if f.text in c.text) for f in copies
        ]
        tokens = [snippet_tokens(c) for c in chunks]
        medians.append(statistics.median(jaccard(a, b) for a, b in combinations(tokens, 2)))
    assert min(medians) >= 0.5 and statistics.median(medians) >= 0.7


def test_multi_note_queries_need_two_places(gen: Generated) -> None:
    for q in (q for q in gen.queries if q.category == "multi-note"):
        assert sorted(t.nugget for t in q.targets) == [1, 2]
        assert len({t.fact.path for t in q.targets}) == 2


def test_newest_wins_versions_are_in_time_order(gen: Generated) -> None:
    updates = [q for q in gen.queries if q.category == "newest-wins"]
    assert len(updates) >= 60
    for q in updates:
        (newest,) = [t.fact for t in q.targets if t.grade == 2]
        assert q.stale and all(f.at < newest.at for f in q.stale)
        assert len({f.path for f in [*q.stale, newest]}) == len(q.stale) + 1
    assert any("stale-evergreen" in q.tags for q in updates)


def test_temporal_queries_name_a_window_holding_only_their_answer(gen: Generated) -> None:
    temporal = [q for q in gen.queries if q.category == "temporal"]
    assert {t for q in temporal for t in q.tags if t.startswith("when-")} >= {
        "when-today",
        "when-yesterday",
        "when-weekday",
        "when-week",
        "when-month-name",
    }
    for q in temporal:
        assert q.window is not None
        inside = [f for f in q.family if q.window[0] <= f.at < q.window[1]]
        assert inside == [t.fact for t in q.targets if t.grade > 0]


def test_time_phrases_follow_the_calendar() -> None:
    rng = random.Random(0)
    tuesday = utc_seconds(2026, 3, 3, 10)  # a Tuesday
    assert time_phrase(rng, tuesday, tuesday + 3 * HOUR)[0] == "earlier today"  # type: ignore[index]
    assert time_phrase(rng, tuesday, tuesday + DAY)[0] == "yesterday"  # type: ignore[index]
    phrase, kind, (lo, hi) = time_phrase(rng, tuesday, tuesday + 9 * DAY)  # type: ignore[misc]
    assert (phrase, kind) == ("last week", "week") and lo <= tuesday < hi
    assert lo == utc_seconds(2026, 3, 2) and hi == utc_seconds(2026, 3, 9)
    named = {time_phrase(random.Random(s), tuesday, tuesday + 4 * DAY)[0] for s in range(9)}  # type: ignore[index]
    assert named <= {"on Tuesday"}
    months = time_phrase(random.Random(1), tuesday, tuesday + 90 * DAY)
    assert months is not None and months[0].endswith("March") and months[1] == "month-name"


def test_cjk_queries_are_found_by_trigrams_not_by_unicode61_tokens(gen: Generated) -> None:
    cjk = [q for q in gen.queries if q.category == "cjk"]
    assert len(cjk) >= 50 and all("trigram" in q.tags for q in cjk)
    for q in cjk:
        text = q.targets[0].fact.text.lower()
        chinese = [k for k in extract_keywords(q.text) if any("\u4e00" <= c <= "\u9fff" for c in k)]
        substrings = [k for k in chinese if len(k) >= 3 and k in text]  # a trigram index matches
        assert substrings, q.qid
        assert not set(substrings) & set(extract_keywords(text)), q.qid  # unicode61 does not


def test_paraphrases_share_little_more_than_the_component(gen: Generated) -> None:
    def overlap(q) -> int:  # type: ignore[no-untyped-def]
        fact = q.targets[0].fact
        return len(set(extract_keywords(q.text)) & set(extract_keywords(fact.text)) - {fact.comp})

    para = [overlap(q) for q in gen.queries if q.category == "paraphrase"]
    plain = [overlap(q) for q in gen.queries if q.category == "fact" and "incident" not in q.tags]
    assert max(para) <= 1 and statistics.mean(para) < 0.3
    assert statistics.mean(plain) >= 1


def test_abstention_queries_share_words_with_the_memory(gen: Generated) -> None:
    abstention = [q for q in gen.queries if q.category == "abstention"]
    assert all(q.absent_terms and not q.targets for q in abstention)
    near = [q for q in abstention if "near-miss" in q.tags]
    assert len(near) >= 40
    assert all(q.absent_terms[0][0] in extract_keywords(q.text) for q in near)
