"""The functions the notebooks call: one per cell, each returning what the cell shows.

``import memlab.workbench as wb`` and then, for example::

    wb.setup()                                   # display options + versions table
    demo = wb.open_demo()                        # the tour's memory, watched live
    wb.trace(demo, "which Node version does CI use?")
    exp = wb.run_compare("agent-memory", ["fts", "hybrid", "mmr"], out_dir="out")
    wb.metric_plot(exp)

Modules: ``display`` (Plot, Panel, setup), ``demo`` and ``live`` (the tour's
memory and its live demos), ``traces``, ``findings`` and ``supplement`` (the
c0 findings), ``evaluation`` and ``plots`` (compare and regression),
``separation`` (filtering and ranking taken apart), ``regression`` (the
baseline check), ``agents`` (the agent-config notebook), ``sweeps`` and
``capacity`` (the sweep and Dream capacity notebooks), ``judging`` (the judging
widget and judging health). Every function is
reachable from tests; the notebooks hold no logic of their own.
"""

from __future__ import annotations

from memlab.eval.replay.prepared import PrepareOptions
from memlab.workbench.agents import (
    cascade_matrix,
    catalogs,
    example_agents,
    failure_modes,
    matrix_view,
    resolve_table,
    save_agents,
)
from memlab.workbench.capacity import (
    capacity_summary,
    fleet_params,
    fleet_scaling,
    fresh_gates,
    gate_sweep,
    gate_sweep_plot,
    gate_sweep_table,
    per_user_plot,
    planner_table,
    profiles_side_by_side,
    run_fleet,
    runs_per_hour_plot,
    save_capacity,
    theory_check,
)
from memlab.workbench.course import check, solution
from memlab.workbench.display import Panel, Plot, setup
from memlab.workbench.dream_lessons import gate_scenario, gate_table, lock_rollback, rollback_table
from memlab.workbench.evaluation import (
    benchmark_configs,
    biggest_changes,
    category_table,
    change_traces,
    experiment_summary,
    metric_table,
    paper_table,
    run_compare,
    significance_table,
)
from memlab.workbench.experiment_plots import baseline_plot, category_plot, delta_plot, metric_plot
from memlab.workbench.findings import (
    age_limit_table,
    dataset_overview,
    decay_limit_plot,
    prepare_dataset,
    session_ages,
)
from memlab.workbench.judging import (
    JudgeWidget,
    judge_widget,
    judging_folder,
    judging_health_panel,
)
from memlab.workbench.live import (
    access_boost_demo,
    degradation,
    edit_memory,
    live_search,
    mmr_side_by_side,
    remove_memory,
)
from memlab.workbench.regression import baseline_check
from memlab.workbench.review import (
    capability_levels,
    lock_race,
    missing_fields,
    mmr_defaults,
    persona_vs_role_prompt,
    why_three_times,
)
from memlab.workbench.scale import cluster
from memlab.workbench.separation import (
    age_plot,
    age_table,
    category_views,
    changes_table,
    min_score_plot,
    min_score_table,
    power_panel,
    ranking_only_significance,
    reachability_panel,
    separate,
    views_table,
)
from memlab.workbench.supplement import (
    supplement_effect,
    supplement_example,
    supplement_passes,
    supplement_tally,
)
from memlab.workbench.sweeps import (
    best_table,
    chosen_vs_default,
    decide,
    decision_panel,
    engine_summary,
    export_decision,
    front_plot,
    front_tables,
    half_life_by_age,
    half_life_plot,
    heatmap,
    lambda_plot,
    sweep,
    sweep_engine,
)
from memlab.workbench.tour import (
    Demo,
    chunk_table,
    close_demo,
    memory_files,
    open_demo,
    save_tour,
)
from memlab.workbench.traces import decay_side_by_side, keywords, stage_plot, trace

__all__ = [
    "Demo",
    "JudgeWidget",
    "Panel",
    "Plot",
    "PrepareOptions",
    "access_boost_demo",
    "age_limit_table",
    "age_plot",
    "age_table",
    "baseline_check",
    "baseline_plot",
    "benchmark_configs",
    "best_table",
    "biggest_changes",
    "capability_levels",
    "capacity_summary",
    "cascade_matrix",
    "catalogs",
    "category_plot",
    "category_table",
    "category_views",
    "change_traces",
    "changes_table",
    "check",
    "chosen_vs_default",
    "chunk_table",
    "close_demo",
    "cluster",
    "dataset_overview",
    "decay_limit_plot",
    "decay_side_by_side",
    "decide",
    "decision_panel",
    "degradation",
    "delta_plot",
    "edit_memory",
    "engine_summary",
    "example_agents",
    "experiment_summary",
    "export_decision",
    "failure_modes",
    "fleet_params",
    "fleet_scaling",
    "fresh_gates",
    "front_plot",
    "front_tables",
    "gate_scenario",
    "gate_sweep",
    "gate_sweep_plot",
    "gate_sweep_table",
    "gate_table",
    "half_life_by_age",
    "half_life_plot",
    "heatmap",
    "judge_widget",
    "judging_folder",
    "judging_health_panel",
    "keywords",
    "lambda_plot",
    "live_search",
    "lock_race",
    "lock_rollback",
    "matrix_view",
    "memory_files",
    "metric_plot",
    "metric_table",
    "min_score_plot",
    "min_score_table",
    "missing_fields",
    "mmr_defaults",
    "mmr_side_by_side",
    "open_demo",
    "paper_table",
    "per_user_plot",
    "persona_vs_role_prompt",
    "planner_table",
    "power_panel",
    "prepare_dataset",
    "profiles_side_by_side",
    "ranking_only_significance",
    "reachability_panel",
    "remove_memory",
    "resolve_table",
    "rollback_table",
    "run_compare",
    "run_fleet",
    "runs_per_hour_plot",
    "save_agents",
    "save_capacity",
    "save_tour",
    "separate",
    "session_ages",
    "setup",
    "significance_table",
    "solution",
    "stage_plot",
    "supplement_effect",
    "supplement_example",
    "supplement_passes",
    "supplement_tally",
    "sweep",
    "sweep_engine",
    "theory_check",
    "trace",
    "views_table",
    "why_three_times",
]
