"""DataFrames for notebooks: provenance of a resolution, catalogs, the cascade matrix.

Only this module imports pandas, so the CLI and the pure modules stay light.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from memlab.agents.discovery import CATALOG_COLUMNS, Catalog, catalog_rows
from memlab.agents.matrix import all_matrix_rows
from memlab.agents.provenance import PROVENANCE_COLUMNS, HasProvenance, provenance_rows


def provenance_table(resolved: HasProvenance) -> pd.DataFrame:
    """Per field: value, deciding level, what it wrote, what it shadowed, a note.

    ``resolved`` is a ``Resolution`` (``resolve_agent``) or a ``Cascade``.
    """
    return pd.DataFrame(provenance_rows(resolved), columns=list(PROVENANCE_COLUMNS))


def catalog_table(catalog: Catalog[Any]) -> pd.DataFrame:
    return pd.DataFrame(catalog_rows(catalog), columns=list(CATALOG_COLUMNS))


def cascade_matrix(fields: Iterable[str] | None = None) -> pd.DataFrame:
    """Every cascaded field × every combination of level states → value and level."""
    return pd.DataFrame(all_matrix_rows(fields))
