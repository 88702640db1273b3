"""A replay product on disk that this memlab cannot read is replayed again, not a crash:
damaged bytes, or classes pickled under module names that no longer exist."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from memlab.eval.replay.products import load_product


@pytest.mark.parametrize("kind", ["damaged", "moved module", "other object"])
def test_an_unreadable_product_is_dropped(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "product.pkl"
    if kind == "damaged":
        path.write_bytes(b"\x80\x05not a pickle")
    elif kind == "moved module":
        # GLOBAL of a module that is gone (as after a rename), NEWOBJ
        path.write_bytes(b"\x80\x02cmemlab.eval.gone_module\nGroupProduct\n)\x81.")
    else:
        path.write_bytes(pickle.dumps({"not": "a product"}))
    assert load_product(path) is None
    assert path.exists() == (kind == "other object")  # unreadable files are removed
