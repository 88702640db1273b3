"""The agent-config notebook: a small example project, the cascade matrix, the two failure modes.

``example_agents`` writes a git project with agent, role and persona files (and
an empty ``GROK_HOME``, so nothing of the user's own setup leaks in) and loads
what a spawn there can see. Two entries are broken on purpose: the persona
``ghostwriter`` names an instructions file that does not exist (a persona fails
*closed*: the spawn aborts), and the role ``docs-writer`` names a prompt file
that does not exist (a role prompt degrades *softly*: a warning, the spawn goes
on) — SPEC §8.3.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from memlab.agents.project import AgentWorkspace, load_workspace, resolve_agent
from memlab.agents.tables import cascade_matrix as _cascade_matrix
from memlab.agents.tables import catalog_table, provenance_table
from memlab.agents.types import overrides_from_assignments
from memlab.scratch import scratch_dir
from memlab.workbench.display import Panel

EXAMPLE_FILES = {
    ".grok/agents/docs-writer.md": (
        "---\nname: docs-writer\ndescription: Writes and fixes documentation\n"
        "model: grok-code-fast\neffort: low\nisolation: worktree\n---\n"
        "You write clear, short documentation for this repository.\n"
    ),
    ".grok/agents/reviewer.md": (
        "---\nname: reviewer\ndescription: Reviews a change\neffort: medium\n---\n"
        "Review the change you are given.\n"
    ),
    ".grok/roles/reviewer.toml": (
        'description = "Reviews diffs; never edits"\ndefault_capability_mode = "read-only"\n'
        'model = "grok-4"\nreasoning_effort = "high"\nprompt_file = "prompts/reviewer.md"\n'
        'default_isolation = "none"\n'
    ),
    ".grok/roles/prompts/reviewer.md": "Review the change for correctness first, style last.\n",
    ".grok/roles/docs-writer.toml": (
        'description = "Edits docs only"\ndefault_capability_mode = "read-write"\n'
        'prompt_file = "prompts/missing.md"\n'
    ),
    ".grok/personas/terse.toml": (
        'instructions = "Answer in at most five lines."\ninstructions_file = "terse-extra.md"\n'
        'model = "grok-3-mini"\ndefault_isolation = "worktree"\n'
    ),
    ".grok/personas/terse-extra.md": "No preamble, no summary at the end.\n",
    ".grok/personas/ghostwriter.toml": 'instructions_file = "ghostwriter.md"\n',
    "agents.toml": (
        'known_models = ["grok-4", "grok-3-mini", "grok-code-fast"]\n\n'
        '[agents.explore]\nmodel = "grok-3-mini"\n'
    ),
}


def example_agents(dest: str = "") -> AgentWorkspace:
    """Write the example project into ``dest`` (default: a temp folder, removed when the
    kernel exits) and load it."""
    root = Path(dest) if dest else scratch_dir("memlab-agents-")
    (root / ".git").mkdir(parents=True, exist_ok=True)
    (root / "grok-home").mkdir(exist_ok=True)
    for rel, text in EXAMPLE_FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return load_workspace(cwd=root, grok_home=root / "grok-home", config=root / "agents.toml")


def catalogs(ws: AgentWorkspace) -> Panel:
    """Agents, roles and personas a spawn can see, with where each came from."""
    panel = Panel("what a spawn in the example project can see", [f"project: {ws.cwd}"])
    for title, catalog in (("agents", ws.agents), ("roles", ws.roles), ("personas", ws.personas)):
        table = catalog_table(catalog)
        table["source"] = [s.replace(str(ws.cwd), ".") for s in table["source"]]
        panel.add(title, table)
    return panel


def cascade_matrix(fields: Sequence[str] = ()) -> pd.DataFrame:
    """The cascade matrix (every level state combination → value and deciding level)."""
    return _cascade_matrix(list(fields) or None)


def matrix_view(field: str, rows: str, columns: str, **fixed: str) -> pd.DataFrame:
    """One slice of the matrix: ``rows`` × ``columns`` states → "value (level)".

    Levels not named stay at the first state (usually ``unset``) unless given in
    ``fixed``: ``matrix_view("isolation", "role", "persona", override="unset")``.
    """
    df = _cascade_matrix([field])
    df = df[df[rows].astype(bool) & df[columns].astype(bool)]
    for level in ("override", "role", "persona", "pin", "definition", "parent", "fork_context"):
        if level in (rows, columns) or not df[level].astype(bool).any():
            continue
        state = fixed.get(level, df[level].iloc[0])
        df = df[df[level] == state]
    df = df.assign(cell=[f"{v} ({lv})" for v, lv in zip(df["value"], df["level"], strict=True)])
    wide = df.pivot(index=rows, columns=columns, values="cell")
    wide.index.name = f"{rows} \\ {columns}"
    return wide


def resolve_table(ws: AgentWorkspace, agent_type: str, **overrides: Any) -> Panel:
    """Resolve one spawn: the decision, its warnings and where every field came from."""
    overrides = {k: v for k, v in overrides.items() if v not in (None, "")}
    spawn = overrides_from_assignments(f"{k}={v}" for k, v in overrides.items())
    res = resolve_agent(ws, agent_type, spawn, parent_model="grok-4")
    decision = "PROCEEDS" if res.decision.proceed else f"ABORTS: {res.decision.error}"
    spawn_text = " ".join([agent_type, *(f"{k}={v}" for k, v in overrides.items())])
    notes = [f"spawn {spawn_text} → {decision}"]
    notes += [f"warning: {w}" for w in res.warnings]
    return Panel(f"resolve {agent_type}", notes, [("provenance", provenance_table(res))])


SCENARIOS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("role and persona fine", "reviewer", {"persona": "terse"}),
    ("persona not found (typo)", "reviewer", {"persona": "tersee"}),
    ("persona instructions file missing", "reviewer", {"persona": "ghostwriter"}),
    ("role prompt file missing", "docs-writer", {}),
)


def failure_modes(ws: AgentWorkspace) -> pd.DataFrame:
    """SPEC §8.3 side by side: the persona fails closed, the role prompt degrades softly."""
    rows = []
    for scenario, agent_type, overrides in SCENARIOS:
        spawn = overrides_from_assignments(f"{k}={v}" for k, v in overrides.items())
        res = resolve_agent(ws, agent_type, spawn, parent_model="grok-4")
        cfg = res.config
        rows.append(
            {
                "scenario": scenario,
                "spawn": " ".join([agent_type, *(f"{k}={v}" for k, v in overrides.items())]),
                "proceeds": res.decision.proceed,
                "persona_error": cfg.persona_error,
                "role_prompt_warning": cfg.role_prompt_warning,
                "model": cfg.model,
                "capability_mode": getattr(cfg.capability_mode, "value", cfg.capability_mode),
                "isolation": getattr(cfg.isolation, "value", cfg.isolation),
            }
        )
    return pd.DataFrame(rows)


def save_agents(ws: AgentWorkspace, out_dir: str = "") -> str:
    """Write the cascade matrix and the failure-mode table beside the executed notebook."""
    from memlab import __version__
    from memlab.eval.compare.manifest import write_json

    if not out_dir:
        return "out_dir is empty: nothing written"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    cascade_matrix().to_csv(out / "cascade_matrix.csv", index=False)
    failure_modes(ws).to_csv(out / "failure_modes.csv", index=False)
    manifest = {"notebook": "agent_config", "memlab_version": __version__, "project": str(ws.cwd)}
    write_json(out / "manifest.json", manifest)
    return f"wrote cascade_matrix.csv, failure_modes.csv and manifest.json to {out}"
