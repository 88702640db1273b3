"""Parameter sweeps at interactive speed: half-life, source weights, λ, fusion weights.

Candidates are gathered once per query at the widest candidate limit any
configuration needs; every configuration is then rescored by the one scoring
core in its many-configuration form (``memlab.retrieval.many``) over all queries at
once, and measured with vectorised measures (``memlab.eval.measures``). Public API:

* ``run_sweep(dataset, space, ...)`` → ``SweepResult`` (table, ``best``, ``chosen``,
  ``decide``);
* ``ChoiceRule``, ``decide`` → ``Decision`` — the choice under quality and costs
  (``AbstainHits``, ``Tokens``), the Pareto fronts, the holdout gain with its CI
  and paired test, the optimism over repeated splits, the warnings;
* ``Sweep`` — the engine (``score``, ``per_query``, ``hits``, ``long``);
* ``grid``, ``random_configs``, ``load_grid`` — search spaces of dotted paths (and
  index options: ``tokenizer``, ``chunk_bytes``, ``chunk_overlap``, ``chunking``);
  ``shipped_grids`` — the grids memlab ships;
* ``split_queries`` / ``Split`` — dev and holdout queries;
* ``best`` — the best configurations with bootstrap CIs;
* ``plot_half_life``, ``plot_heatmap``, ``plot_lambda``, ``plot_fronts`` — figures;
* ``read_results`` — the table of a finished sweep folder.
"""

from memlab.eval.measures import COST_MEASURES, SWEEP_MEASURES
from memlab.grids import shipped_grids
from memlab.sweep.choice import ChoiceRule, pareto_front
from memlab.sweep.decision import Decision, decide
from memlab.sweep.engine import Sweep
from memlab.sweep.plots import plot_fronts, plot_half_life, plot_heatmap, plot_lambda
from memlab.sweep.results import SweepResult, best
from memlab.sweep.results_folder import read_results
from memlab.sweep.runner import SweepOptions, run_points, run_sweep
from memlab.sweep.space import SweepPoint, grid, load_grid, random_configs
from memlab.sweep.split import Split, split_queries

__all__ = [
    "COST_MEASURES",
    "SWEEP_MEASURES",
    "ChoiceRule",
    "Decision",
    "Split",
    "Sweep",
    "SweepOptions",
    "SweepPoint",
    "SweepResult",
    "best",
    "decide",
    "grid",
    "load_grid",
    "pareto_front",
    "plot_fronts",
    "plot_half_life",
    "plot_heatmap",
    "plot_lambda",
    "random_configs",
    "read_results",
    "run_points",
    "run_sweep",
    "shipped_grids",
    "split_queries",
]
