"""The statistics wing: paired tests (``paired``), significance that reads right
with Holm's families (``significance``), and the power of a comparison
(``power``). It reads the measures wing only.

Each name loads its module on first use (``memlab.faces``).
"""

from typing import TYPE_CHECKING

from memlab.faces import lazy_face

if TYPE_CHECKING:
    from memlab.eval.stats.paired import (
        CACHED_DRAWS,
        SharedDraws,
        WinTieLoss,
        bootstrap_ci,
        fisher_randomisation,
        holm,
        paired_t,
        resample_indices,
        win_tie_loss,
    )
    from memlab.eval.stats.power import (
        ALPHA,
        POWER,
        analytic_mde,
        bootstrap_mde,
        bootstrap_power,
    )
    from memlab.eval.stats.significance import (
        FAMILIES,
        LETTERS,
        SUPERSCRIPTS,
        TEST_NAMES,
        PairwiseTable,
        adjust,
        check_family,
        family_keys,
        family_sentence,
        pairwise_table,
    )

_WHERE = {
    "paired_t": "paired",
    "fisher_randomisation": "paired",
    "holm": "paired",
    "bootstrap_ci": "paired",
    "CACHED_DRAWS": "paired",
    "resample_indices": "paired",
    "SharedDraws": "paired",
    "WinTieLoss": "paired",
    "win_tie_loss": "paired",
    "ALPHA": "power",
    "POWER": "power",
    "analytic_mde": "power",
    "bootstrap_power": "power",
    "bootstrap_mde": "power",
    "FAMILIES": "significance",
    "TEST_NAMES": "significance",
    "LETTERS": "significance",
    "SUPERSCRIPTS": "significance",
    "check_family": "significance",
    "family_keys": "significance",
    "adjust": "significance",
    "family_sentence": "significance",
    "PairwiseTable": "significance",
    "pairwise_table": "significance",
}
__all__ = [
    "ALPHA",
    "CACHED_DRAWS",
    "FAMILIES",
    "LETTERS",
    "POWER",
    "SUPERSCRIPTS",
    "TEST_NAMES",
    "PairwiseTable",
    "SharedDraws",
    "WinTieLoss",
    "adjust",
    "analytic_mde",
    "bootstrap_ci",
    "bootstrap_mde",
    "bootstrap_power",
    "check_family",
    "family_keys",
    "family_sentence",
    "fisher_randomisation",
    "holm",
    "paired_t",
    "pairwise_table",
    "resample_indices",
    "win_tie_loss",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
