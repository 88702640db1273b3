"""The public API is exactly what ``memlab.__all__`` exports, and each name resolves."""

from __future__ import annotations

import subprocess
import sys

import memlab

EXPECTED = {
    "__version__",
    "MemoryStore",
    "search",
    "SearchConfig",
    "MemlabConfig",
    "profile",
    "get_embedder",
    "load_dataset",
    "run_experiment",
    "MemlabError",
}


def test_all_is_the_public_api() -> None:
    assert set(memlab.__all__) == EXPECTED
    for name in memlab.__all__:
        assert getattr(memlab, name) is not None


def test_import_is_cheap() -> None:
    code = "import sys, memlab; print('pandas' in sys.modules, 'ranx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_unknown_attribute() -> None:
    try:
        memlab.nope  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "nope" in str(exc)
    else:
        raise AssertionError("expected AttributeError")
