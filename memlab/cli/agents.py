"""``memlab agents``: list what a spawn can see, and resolve one spawn (SPEC §8).

* ``memlab agents list [--cwd DIR] [--grok-home DIR] [--config FILE] [--json]``
* ``memlab agents resolve TYPE [--persona P] [--set field=value …] [--cwd DIR]
  [--grok-home DIR] [--config FILE] [--parent-model M] [--fork-context] [--json]``

``resolve`` exits 1 when the spawn would abort (a persona error, printed on
stderr) and 0 when it proceeds; a role-prompt failure is printed as a warning on
stderr and the resolved configuration still goes to stdout. Bad input (unknown
agent type, unknown ``--set`` field, malformed files) is a ``MemlabError``: one
line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memlab.agents.cascade import render_persona_block
from memlab.agents.discovery import catalog_rows
from memlab.agents.project import AgentWorkspace, load_workspace, resolve_agent
from memlab.agents.provenance import provenance_rows
from memlab.agents.spawn import Resolution
from memlab.agents.types import OVERRIDE_FIELDS, overrides_from_assignments
from memlab.cli.args import existing_dir
from memlab.cli.commands import summary
from memlab.errors import ConfigError

EXIT_ABORT = 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "agents",
        help=summary("agents"),
        description="Sub-agent configuration resolution (SPEC §8).",
    )
    sub = parser.add_subparsers(dest="agents_command", metavar="ACTION")
    sub.required = True
    listing = sub.add_parser("list", help="agents, roles and personas visible from a directory")
    _add_common(listing)
    listing.set_defaults(func=run_list)
    resolve = sub.add_parser("resolve", help="resolve the runtime config of one spawn")
    resolve.add_argument("agent_type", metavar="TYPE", help="the subagent type to spawn")
    resolve.add_argument(
        "--persona", metavar="P", help="persona override (same as --set persona=P)"
    )
    resolve.add_argument(
        "--set",
        dest="assignments",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help=f"spawn override; FIELD is one of {', '.join(OVERRIDE_FIELDS)}",
    )
    resolve.add_argument("--parent-model", metavar="M", help="the parent session's model")
    resolve.add_argument(
        "--fork-context", action="store_true", help="the spawn forks the parent's context"
    )
    _add_common(resolve)
    resolve.set_defaults(func=run_resolve)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cwd", type=existing_dir, help="directory to discover from (default: .)")
    parser.add_argument("--grok-home", type=Path, help="user dir (default: $GROK_HOME or ~/.grok)")
    parser.add_argument("--config", type=Path, metavar="FILE.toml", help="inline roles/personas")
    parser.add_argument(
        "--allow-dir",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="also read persona/role files from DIR (default: project, user dir, --config's)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _workspace(args: argparse.Namespace) -> AgentWorkspace:
    return load_workspace(
        cwd=args.cwd, grok_home=args.grok_home, config=args.config, allow_dirs=args.allow_dir
    )


def run_list(args: argparse.Namespace) -> int:
    ws = _workspace(args)
    sections = {
        "agents": catalog_rows(ws.agents),
        "roles": catalog_rows(ws.roles),
        "personas": catalog_rows(ws.personas),
    }
    if args.json:
        searched = {
            kind: [{"tier": t.value, "path": str(p) if p else None} for t, p in cat.searched]
            for kind, cat in (("agents", ws.agents), ("roles", ws.roles), ("personas", ws.personas))
        }
        print(json.dumps({**sections, "searched": searched}, indent=2))
        return 0
    for title, rows in sections.items():
        print(f"{title}:")
        if not rows:
            print("  (none)")
        for row in rows:
            print(f"  {row['name']:<20} {row['tier']:<9} {row['source']}")
            for shadow in filter(None, row["shadowed"].split("; ")):
                print(f"      shadows {shadow}")
    return 0


def run_resolve(args: argparse.Namespace) -> int:
    assignments = list(args.assignments)
    if args.persona is not None:
        if any(a.partition("=")[0].strip() == "persona" for a in assignments):
            raise ConfigError("give the persona once: either --persona or --set persona=…")
        assignments.append(f"persona={args.persona}")
    overrides = overrides_from_assignments(assignments)
    ws = _workspace(args)
    res = resolve_agent(
        ws,
        args.agent_type,
        overrides,
        parent_model=args.parent_model,
        fork_context=args.fork_context,
    )
    if args.json:
        print(json.dumps(_resolution_json(ws, res), indent=2))
    else:
        _print_resolution(ws, res)
    for warning in res.decision.warnings:
        print(f"memlab: warning: {warning}", file=sys.stderr)
    if not res.decision.proceed:
        print(f"memlab: spawn aborted: {res.decision.error}", file=sys.stderr)
        return EXIT_ABORT
    return 0


def _sources(ws: AgentWorkspace, res: Resolution) -> dict[str, str | None]:
    """Where the definition, role and persona of a resolution came from."""
    found = {
        "agent": ws.agents.entries.get(res.agent_type),
        "role": ws.roles.entries.get(res.role.name) if res.role else None,
        "persona": ws.personas.entries.get(res.persona.name) if res.persona else None,
    }
    return {
        kind: f"{f.item.name} ({f.tier.value}{f': {f.path}' if f.path else ''})" if f else None
        for kind, f in found.items()
    }


def _resolution_json(ws: AgentWorkspace, res: Resolution) -> dict[str, Any]:
    config = {row["field"]: getattr(res.config, row["field"]) for row in provenance_rows(res)}
    return {
        "agent_type": res.agent_type,
        "sources": _sources(ws, res),
        "config": {k: v.value if hasattr(v, "value") else v for k, v in config.items()},
        "provenance": provenance_rows(res),
        "decision": {
            "proceed": res.decision.proceed,
            "error": res.decision.error,
            "warnings": list(res.decision.warnings),
        },
        "fallbacks_applied": res.fallbacks_applied,
        "persona_block": render_persona_block(res.config),
    }


def _print_resolution(ws: AgentWorkspace, res: Resolution) -> None:
    for kind, source in _sources(ws, res).items():
        print(f"{kind + ':':<9}{source or '-'}")
    print()
    full = provenance_rows(res)
    rows = [{k: _one_line(v) for k, v in row.items()} for row in full]
    _print_table(rows, ("field", "value", "level", "shadowed"))
    notes = [(row["field"], row["note"]) for row in full if row["note"]]
    if notes:
        print()
        for field, note in notes:
            print(f"note: {field}: {note}")
    block = render_persona_block(res.config)
    if block:
        print()
        print(block)
    print()
    if res.decision.proceed:
        print("spawn: proceeds")
    else:
        print("spawn: aborted (persona error; definition fallbacks not applied)")


def _print_table(rows: Sequence[dict[str, str]], columns: Sequence[str]) -> None:
    widths = {c: max([len(c), *(len(r[c]) for r in rows)]) for c in columns}
    print("  ".join(c.upper().ljust(widths[c]) for c in columns).rstrip())
    for row in rows:
        print("  ".join(row[c].ljust(widths[c]) for c in columns).rstrip())


def _one_line(text: str, limit: int = 48) -> str:
    first = text.splitlines()[0] if text else text
    if len(first) > limit or first != text:
        return first[: limit - 1] + "…"
    return first
