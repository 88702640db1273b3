from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.store.chunker import chunk_markdown, content_hash, heading_level


def test_empty_content_has_no_chunks() -> None:
    assert chunk_markdown("") == []


def test_small_content_is_one_chunk_with_all_lines() -> None:
    text = "# Title\n\nline two\nline three\n"
    [chunk] = chunk_markdown(text)
    assert (chunk.start_line, chunk.end_line, chunk.text) == (1, 4, text)


def test_size_limit_is_in_bytes() -> None:
    assert len(chunk_markdown("a" * 1500 + "\n" + "b" * 99)) == 1  # 1600 bytes: one chunk
    cjk = "\n".join(["记忆" * 50] * 6)  # 605 characters but 1805 bytes
    assert len(cjk) < 1600 < len(cjk.encode())
    chunks = chunk_markdown(cjk, max_bytes=1600, overlap_chars=0)
    assert len(chunks) == 2
    assert all(len(c.text.encode()) <= 1600 for c in chunks)


def test_heading_detection() -> None:
    assert heading_level("# A") == 1
    assert heading_level("   ### deep") == 3
    assert heading_level("##") == 2
    assert heading_level("#hashtag") == 0
    assert heading_level("text # not") == 0


def test_sections_split_at_every_heading_with_context_prefix() -> None:
    body = "x" * 700
    text = (
        f"# Top\n\n{body}\n\n## Child\n\n{body}\n\n### Grandchild\n\n{body}\n\n"
        "## Sibling\n\nshort\n"
    )
    chunks = chunk_markdown(text, max_bytes=1600)
    texts = [c.text for c in chunks]
    assert texts[0].startswith("# Top")
    assert texts[1].startswith("[Context: Top]\n\n## Child")
    assert texts[2].startswith("[Context: Top > Child]\n\n### Grandchild")
    assert texts[3].startswith("[Context: Top]\n\n## Sibling")
    assert [c.start_line for c in chunks] == [1, 5, 9, 13]


def test_oversized_section_splits_by_paragraph_with_overlap() -> None:
    paras = [f"paragraph {i} " + ("word " * 60) for i in range(12)]
    text = "# Notes\n\n" + "\n\n".join(paras) + "\n"
    chunks = chunk_markdown(text, max_bytes=1600, overlap_chars=320)
    assert len(chunks) >= 3
    for prev, nxt in zip(chunks, chunks[1:], strict=False):
        # the next chunk starts with the last 320 characters of the previous one
        assert nxt.text.startswith(prev.text[-320:].strip()[:50])
        assert nxt.start_line > prev.start_line
    assert all(len(c.text.encode()) <= 1600 for c in chunks)


def test_overlap_is_in_characters() -> None:
    paras = ["记" * 200 for _ in range(8)]  # 600 bytes each
    text = "# 标题\n\n" + "\n\n".join(paras) + "\n"
    chunks = chunk_markdown(text, max_bytes=1600, overlap_chars=100)
    assert len(chunks) > 1
    assert chunks[1].text.startswith("记" * 100)


def test_hash_is_sha256_of_text() -> None:
    [chunk] = chunk_markdown("hello")
    assert chunk.hash == content_hash("hello") and len(chunk.hash) == 64


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab #\n中é")), max_size=3000))
def test_chunker_never_loses_content_lines(text: str) -> None:
    chunks = chunk_markdown(text, max_bytes=200, overlap_chars=40)
    if not text:
        assert chunks == []
        return
    joined = "\n".join(c.text for c in chunks)
    for line in text.split("\n"):
        if line.strip():
            assert line.strip() in joined
    for c in chunks:
        assert 1 <= c.start_line <= c.end_line
