"""The agents' own settings files from one memlab configuration (``memlab.export.mapping``).

* ``grok_toml`` — SPEC §6's keys as TOML, headed by comments saying which keys
  it sets, that their names follow SPEC §6 (Grok's file layout is not
  published), and every setting it does not carry;
* ``openclaw_block`` — the ``agents.defaults.memorySearch`` block in
  ``openclaw.json``'s shape (plain JSON: the settings it cannot hold are listed
  in ``mapping.md`` beside it);
* ``mapping_rows`` — the listing of both: every setting, its value, where it went
  or why it did not.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from memlab.agents._toml import loads as toml_loads
from memlab.config import IndexConfig, SearchConfig
from memlab.export.mapping import OPENCLAW_ROOT, Carried, carry, nested, not_carried, shown

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _BARE.fullmatch(key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def why_not(c: Carried, agent: str) -> str:
    """Why a setting is not in the target's file, in a few words."""
    if c.target_key is not None:
        reason = getattr(c.target_value, "reason", "") or c.setting.note
        return f"{c.target_key} not written: {reason}"
    if c.matches is True:
        return f"no key; {agent} always behaves so"
    if c.matches is False:
        return f"no key; {agent} behaves otherwise, so this does not carry over"
    return f"no key in {agent}"


def grok_toml(search: SearchConfig, index: IndexConfig, *, header: str = "") -> str:
    """The Grok settings file (see the module docstring)."""
    items = carry("grok", search, index)
    data = nested(items)
    written = [c.target_key for c in items if c.written]
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += [
        "# Grok memory settings written by memlab. Grok's own settings-file layout is not",
        "# published: these keys follow the names of SPEC §6's configuration table",
        "# (chunking as SPEC §2.1's max_bytes / overlap_chars); put them where your",
        "# Grok build reads its memory settings.",
        "#",
        f"# Sets: {', '.join(k for k in written if k)}",
    ]
    rest = not_carried(items)
    if rest:
        lines.append("# Not set here (every memlab setting is listed, none dropped):")
        lines += [f"#   {c.setting.key} = {shown(c.value)}: {why_not(c, 'Grok')}" for c in rest]
    if search.half_life_days is None:
        lines.append("# half_life_days = inf: memlab's null (no decay); TOML has no null")
    lines.append("")
    scalars = {k: v for k, v in data.items() if not isinstance(v, Mapping)}
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in scalars.items()]
    for name, table in data.items():
        if isinstance(table, Mapping):
            lines += ["", f"[{_toml_key(name)}]"]
            if not table:
                lines.append("# (empty: every source weighs 1.0)")
            lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
    text = "\n".join(lines) + "\n"
    toml_loads(text)  # the file must read back (a bug here is not the user's)
    return text


def openclaw_block(search: SearchConfig, index: IndexConfig) -> dict[str, Any]:
    """``{"agents": {"defaults": {"memorySearch": {…}}}}`` — the keys OpenClaw documents."""
    block: dict[str, Any] = nested(carry("openclaw", search, index))
    for name in reversed(OPENCLAW_ROOT):
        block = {name: block}
    return block


def openclaw_json(search: SearchConfig, index: IndexConfig) -> str:
    return json.dumps(openclaw_block(search, index), indent=2, allow_nan=False) + "\n"


def mapping_rows(search: SearchConfig, index: IndexConfig) -> list[dict[str, str]]:
    """Every setting: memlab's value, and what each target file got (or why not)."""
    grok = {c.setting.key: c for c in carry("grok", search, index)}
    claw = {c.setting.key: c for c in carry("openclaw", search, index)}
    rows = []
    for key, g in grok.items():
        o = claw[key]
        rows.append(
            {
                "memlab": key,
                "value": shown(g.value),
                "Grok": f"{g.target_key} = {shown(g.target_value)}"
                if g.written
                else why_not(g, "Grok"),
                "OpenClaw": f"{o.target_key} = {shown(o.target_value)}"
                if o.written
                else why_not(o, "OpenClaw"),
            }
        )
    return rows
