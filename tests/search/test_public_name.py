"""``from memlab import search`` is the search function whatever was imported before
(issue 12, item 6): it used to be the sub-package after ``import memlab.search.x``; the
package is ``memlab.retrieval`` now, and ``memlab.search`` a plain function."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import memlab
from memlab.store.store import MemoryStore
from tests.conftest import T0


def import_every_module() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(memlab.__path__, "memlab.")]
    for name in names:
        if name.endswith("__main__"):
            continue
        importlib.import_module(name)
    return names


def test_search_is_callable_after_importing_every_module(memory: Path, tmp_path: Path) -> None:
    names = import_every_module()
    assert "memlab.retrieval.pipeline" in names and len(names) > 100
    from memlab import search

    assert callable(search) and search is memlab.search
    assert inspect.isfunction(search)  # a plain function, no callable module
    assert list(inspect.signature(search).parameters)[:4] == ["store", "query", "config", "now"]
    with MemoryStore.open(memory, index_path=tmp_path / "i.sqlite") as store:
        result = search(store, "token refresh bug", None, T0, record_access=False)
    assert result.hits and result.hits[0].source == "session"
    import memlab.retrieval.pipeline as pipeline  # the package's modules stay importable

    assert pipeline.search.__name__ == "search"


def test_the_name_does_not_depend_on_import_order() -> None:
    """In a fresh interpreter: the sub-package first, then the public name (the order that
    used to hand out the module)."""
    code = (
        "import memlab.retrieval.keywords, memlab.retrieval.pipeline\n"
        "from memlab import get_embedder, search\n"
        "import inspect\n"
        "print(callable(search), 'store' in inspect.signature(search).parameters)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["True", "True"]
