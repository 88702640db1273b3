"""Writing an export folder: memlab's config, the agents' settings, the listing, the decision.

``write_export(dest, search, ...)`` writes::

    chosen.yaml          memlab's config (``--config FILE``, ``--runs NAME=FILE``)
    grok-settings.toml   SPEC §6's keys (``memlab.export.agent_settings.grok_toml``)
    openclaw.json        the agents.defaults.memorySearch block
    mapping.md           every setting: its value and where it went, or why not
    decision.md          the sweep's decision (``memlab sweep --export`` only)

The memlab config is the profile plus the search keys that differ from it (and
the index options, as an ``index`` section); it is read back before it is
written and must give the very configuration exported. Every file is replaced
atomically.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memlab.config import IndexConfig, SearchConfig, config_hash, profile
from memlab.errors import ConfigError
from memlab.eval.replay.index_options import index_section, options_of_section
from memlab.eval.runs.rankers import read_run
from memlab.export.agent_settings import grok_toml, mapping_rows, openclaw_json, why_not
from memlab.export.mapping import Carried, carry, not_carried, shown
from memlab.safefs import write_atomic
from memlab.sweep.space import config_diff

GROK_FILE = "grok-settings.toml"
OPENCLAW_FILE = "openclaw.json"
MAPPING_FILE = "mapping.md"
DECISION_FILE = "decision.md"


@dataclass
class Exported:
    dest: Path
    written: list[Path] = field(default_factory=list)
    left_out: dict[str, list[Carried]] = field(default_factory=dict)  # target → settings
    notes: list[str] = field(default_factory=list)  # what no setting expresses

    def lines(self) -> list[str]:
        """What a terminal shows: the files and the settings no target file carries."""
        out = [f"wrote {p}" for p in self.written]
        out += [f"note: {n}" for n in self.notes]
        for target, items in self.left_out.items():
            agent = "Grok" if target == "grok" else "OpenClaw"
            if items:
                out.append(f"not in the {agent} settings ({len(items)}):")
                out += [f"  {c.setting.key} = {shown(c.value)}: {why_not(c, agent)}" for c in items]
        return out


def unflatten(flat: Mapping[str, Any]) -> dict[str, Any]:
    """Dotted paths → nested mappings."""
    out: dict[str, Any] = {}
    for key, value in flat.items():
        node = out
        *parents, leaf = key.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    return out


def memlab_yaml(
    search: SearchConfig, profile_name: str, index: Mapping[str, Any], header: str = ""
) -> str:
    """The memlab config file of ``search`` (and index options) on ``profile_name``: the
    search keys that differ from the profile's (a source weight the profile sets and
    ``search`` does not is written as 1.0, what a missing weight means)."""
    import yaml

    start = profile(profile_name).search
    diff = config_diff(start, search)
    for source in start.source_weights:
        if source not in search.source_weights:
            diff[f"source_weights.{source}"] = 1.0
    data: dict[str, Any] = {"profile": profile_name, "search": unflatten(diff)}
    if index:
        data["index"] = index_section(index)
    head = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def same_search(a: SearchConfig, b: SearchConfig) -> bool:
    """Equal configurations, a source weight of 1.0 counting as a missing one."""

    def plain(c: SearchConfig) -> str:
        weights = {k: v for k, v in c.source_weights.items() if v != 1.0}
        return config_hash(replace(c, source_weights=weights))

    return plain(a) == plain(b)


def check_round_trip(path: Path, search: SearchConfig, index: Mapping[str, Any]) -> None:
    """The written file must read back as the exported configuration (a bug otherwise)."""
    run = read_run(path)
    if not same_search(run.config, search) or dict(run.index) != dict(index):
        raise ConfigError(f"{path} does not read back as the configuration exported; report this")


def write_export(
    dest: str | Path,
    search: SearchConfig,
    *,
    index: IndexConfig,
    profile_name: str,
    index_options: Mapping[str, Any] | None = None,
    yaml_name: str = "chosen.yaml",
    header: str = "",
    decision_md: str | None = None,
    notes: Sequence[str] = (),
) -> Exported:
    """Write the export folder (see the module docstring); ``index`` is the index the
    agents' files describe, ``index_options`` what the memlab config refines the
    dataset's memory with."""
    folder = Path(dest)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{folder} exists and is not a folder; choose another export folder")
    folder.mkdir(parents=True, exist_ok=True)
    options = dict(index_options or {})
    options_of_section(index_section(options), "the export")  # checked before writing
    done = Exported(folder, notes=list(notes))
    text = memlab_yaml(search, profile_name, options, header)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".export-") as tmp:
        probe = Path(tmp) / yaml_name
        probe.write_text(text, encoding="utf-8")
        check_round_trip(probe, search, options)
    files = {
        yaml_name: text,
        GROK_FILE: grok_toml(search, index, header="\n".join([header, *notes]).strip()),
        OPENCLAW_FILE: openclaw_json(search, index),
        MAPPING_FILE: mapping_markdown_of(search, index, header, notes),
    }
    if decision_md is not None:
        files[DECISION_FILE] = decision_md
    for name, content in files.items():
        write_atomic(folder / name, content, root=folder)
        done.written.append(folder / name)
    done.left_out = {t: not_carried(carry(t, search, index)) for t in ("grok", "openclaw")}
    return done


def mapping_markdown_of(
    search: SearchConfig, index: IndexConfig, header: str = "", notes: Sequence[str] = ()
) -> str:
    """``mapping.md``: every setting of this configuration and where it went."""
    rows = mapping_rows(search, index)
    head = list(rows[0])
    lines = ["# Settings carried to the agents", ""]
    if header:
        lines += [header.replace("\n", "  \n"), ""]
    lines += [f"Note: {n}" for n in notes] + ([""] if notes else [])
    lines += [
        f"Every memlab setting, its value, and what `{GROK_FILE}` (SPEC §6's key names; "
        f"Grok's own file layout is not published) and `{OPENCLAW_FILE}` "
        "(`agents.defaults.memorySearch`) got — or why not. The table of counterparts "
        "is `memlab.export.mapping.SETTINGS`.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for r in rows:
        lines.append("| " + " | ".join(r[h].replace("|", "\\|") for h in head) + " |")
    return "\n".join(lines) + "\n"
