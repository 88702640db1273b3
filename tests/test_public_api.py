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


def test_import_memlab_shortens_openblas_spinning_unless_the_user_chose() -> None:
    """``import memlab`` sets ``OPENBLAS_THREAD_TIMEOUT`` (OpenBLAS's workers busy-wait
    2^28 cycles by default: ~0.1 s of CPU per process that imports numpy) and keeps a
    value the user set."""
    import os
    import subprocess
    import sys

    probe = "import os, memlab; print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "16"
    env["OPENBLAS_THREAD_TIMEOUT"] = "28"
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "28"
