"""Per-tag index options: queries carrying a tag are gathered from their own replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.config import ChunkingConfig, DreamConfig, IndexConfig
from memlab.datasets import DatasetWriter, Query, load_dataset, validate_dataset
from memlab.embeddings.hashing import HashEmbedder
from memlab.errors import DatasetError
from memlab.eval.compare.experiment import run_experiment
from memlab.eval.replay.memory import Memory, memory_for
from memlab.eval.replay.prepared import Prepared, prepare
from memlab.timefmt import parse_iso

T0 = parse_iso("2026-03-01T09:00:00Z")
DAY = 86400.0
BY_TAG = {"trigram": {"tokenizer": "trigram"}}
ZH_LOG = "ws-a/sessions/2026-03-02-db-aaaa0001.md"
EN_LOG = "ws-a/sessions/2026-03-03-ci-aaaa0002.md"


def write_tagged(dest: Path, index: dict[str, object]) -> Path:
    """One workspace: a Chinese note (its keywords inside a longer run of Chinese) and an
    English one; a Chinese query tagged ``trigram`` and an English query with a
    two-letter keyword (``ci``: the trigram tokenizer never matches it)."""
    w = DatasetWriter(
        dest,
        name="tagged",
        licence="CC0-1.0",
        origin="tests",
        as_of=T0 + 10 * DAY,
        grouped=True,
        format_version=2,
        index=index,
        timeline={"dream": False},
    )
    w.add_group("a", workspace="ws-a", root="memory")
    w.add_file("ws-a/MEMORY.md", "# Project\n\n- Editor: helix\n", T0, group="a")
    w.add_file(ZH_LOG, "# 数据库\n\n我们把数据库端口改成了五四三二号\n", T0 + DAY, group="a")
    w.add_file(EN_LOG, "# CI\n\nCI runs on node twenty two now\n", T0 + 2 * DAY, group="a")
    w.add_query(
        "q-zh", "数据库端口", group="a", as_of=T0 + 3 * DAY, category="cjk", tags=["trigram"]
    )
    w.judge("q-zh", f"{ZH_LOG}#L3", 2)
    w.add_query("q-en", "ci", group="a", as_of=T0 + 3 * DAY, category="fact")
    w.judge("q-en", f"{EN_LOG}#L3", 2)
    return w.finish()


@pytest.fixture(scope="module")
def tagged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tagged(tmp_path_factory.mktemp("ds") / "tagged", {"by_tag": BY_TAG})


def prepared(path: Path, work: Path, **options: object) -> Prepared:
    ds = load_dataset(path)
    return prepare(ds, embedder=HashEmbedder(), memory=memory_for(ds, **options), work_dir=work)


def ndcg(p: Prepared) -> dict[str, float]:
    exp = run_experiment(p, ["fts"], measures=["nDCG@10"])
    part = exp.perquery[exp.perquery["measure"] == "nDCG@10"]
    return dict(zip(part["query_id"], part["value"], strict=True))


def test_the_manifest_gives_tagged_queries_their_own_index(tagged: Path, tmp_path: Path) -> None:
    p = prepared(tagged, tmp_path / "w")
    assert p.memory.by_tag == (("trigram", IndexConfig(tokenizer="trigram")),)
    assert "tag 'trigram': trigram 1600/320" in p.memory.label()
    assert ndcg(p) == {"q-zh": 1.0, "q-en": 1.0}  # each query found on its own index
    with p.store_for(p.dataset.query("q-zh")) as store:
        assert store.index.tokenizer == "trigram"
    with p.store_for(p.dataset.query("q-en")) as store:
        assert store.index.tokenizer == "unicode61"


def test_an_explicit_tokenizer_applies_to_every_query(tagged: Path, tmp_path: Path) -> None:
    unicode = prepared(tagged, tmp_path / "u", tokenizer="unicode61")
    assert unicode.memory.by_tag == ()
    assert ndcg(unicode) == {"q-zh": 0.0, "q-en": 1.0}  # the Chinese run is one token
    trigram = prepared(tagged, tmp_path / "t", tokenizer="trigram")
    assert ndcg(trigram) == {"q-zh": 1.0, "q-en": 0.0}  # two letters never match


def test_tag_options_refine_the_resolved_index(tagged: Path) -> None:
    ds = load_dataset(tagged)
    memory = memory_for(ds, chunk_bytes=800)
    assert memory.by_tag == (
        ("trigram", IndexConfig(tokenizer="trigram", chunking=ChunkingConfig(800, 320))),
    )


def test_tag_options_and_chunking_modes_coexist(tmp_path: Path) -> None:
    tag = {"trigram": {"tokenizer": "trigram", "max_bytes": 900}}
    ds = load_dataset(write_tagged(tmp_path / "modes", {"chunking": "file", "by_tag": tag}))
    memory = memory_for(ds)
    assert memory.index.chunking == ChunkingConfig(1600, 320, "file")
    assert memory.by_tag == (
        ("trigram", IndexConfig(tokenizer="trigram", chunking=ChunkingConfig(900, 320, "file"))),
    )
    # explicit options apply on top of the tag's (and win over them)
    memory = memory_for(ds, chunking="record", roles="user", chunk_bytes=700)
    record = ChunkingConfig(700, 320, "record", ("user",))
    assert memory.index == IndexConfig(chunking=record)
    assert memory.by_tag == (("trigram", IndexConfig(tokenizer="trigram", chunking=record)),)
    label = memory.label()
    assert label.startswith("unicode61 one chunk per record, roles user (tag 'trigram': trigram")
    assert "trigram one chunk per record, roles user)" in label


def test_bad_chunking_in_tag_options_is_reported(tmp_path: Path) -> None:
    path = write_tagged(tmp_path / "bad", {"by_tag": BY_TAG})
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["index"]["by_tag"] = {"trigram": {"chunking": "page", "roles": "user"}}
    (path / "manifest.json").write_text(json.dumps(manifest))
    text = validate_dataset(path).format()
    assert "by_tag 'trigram': index chunking 'page' is unknown" in text
    assert "by_tag 'trigram': index roles = 'user' is invalid" in text


def test_split_and_for_query() -> None:
    plain, tri = IndexConfig(), IndexConfig(tokenizer="trigram")
    memory = Memory(plain, DreamConfig(), (("zh", tri),))
    ds_queries = [_query("a", ()), _query("b", ("zh", "x")), _query("c", ("x",))]
    parts = memory.split(ds_queries)
    assert [[q.query_id for q in qs] for qs in parts.values()] == [["a", "c"], ["b"]]
    assert list(parts) == [Memory(plain, DreamConfig()), Memory(tri, DreamConfig())]
    assert memory.for_query(ds_queries[1]).by_tag == ()
    assert "by_tag" in memory.to_dict() and "by_tag" not in Memory(plain).to_dict()


def test_bad_tag_options_are_reported(tmp_path: Path) -> None:
    path = write_tagged(tmp_path / "bad", {"by_tag": BY_TAG})
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["index"]["by_tag"] = {"trigram": {"tokeniser": "trigram"}, "x": {"max_bytes": 0}}
    (path / "manifest.json").write_text(json.dumps(manifest))
    report = validate_dataset(path)
    assert not report.ok
    assert "by_tag 'trigram': unknown index option 'tokeniser'" in report.format()
    assert "did you mean 'tokenizer'" in report.format()
    assert "by_tag 'x': index max_bytes = 0 is invalid" in report.format()
    with pytest.raises(DatasetError, match="by_tag"):
        write_tagged(tmp_path / "bad2", {"by_tag": {"trigram": "trigram"}})


def _query(qid: str, tags: tuple[str, ...]) -> Query:
    return Query(qid, "text", "a", T0, tags=tags)
