"""The configuration a command runs with: one merge for every command.

In this order, later wins: the profile (``--profile``, or the file's ``profile``
key when ``--profile`` is not given) → the section of the ``--config`` file →
the command's own flags (``--half-life`` …) → ``--set KEY=VALUE``. Keys are
dotted paths (``mmr.lambda``, ``source_weights.session``); a leading section
name (``dream.min_hours``) is accepted. ``--set`` values are YAML scalars
(``30``, ``0.5``, ``true``, ``null``, ``grok``).

A config file is a YAML (or JSON) mapping: ``profile`` and one key per section
(``search``, ``dream``, plus command-specific ones such as ``simulation``); a
file without section keys holds the command's own section directly (``memlab
eval --config`` files list search keys at the top).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from memlab.config import DEFAULT_PROFILE, MemlabConfig, flatten, profile, with_overrides
from memlab.config_file import read_config_file
from memlab.errors import ConfigError


def add_config_args(p: argparse.ArgumentParser, section: str, example: str) -> None:
    """``--profile``, ``--config`` and ``--set`` for a command configured by ``section``."""
    p.add_argument(
        "--profile", help=f"configuration profile (default {DEFAULT_PROFILE}, or the file's)"
    )
    p.add_argument("--config", help=f"YAML/JSON file: {section} settings (or {{{section}: …}})")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"one {section} setting, dotted path (e.g. {example}; repeatable)",
    )


_PLAIN = {"true": True, "false": False}  # what YAML reads these as, without loading yaml


def parse_value(text: str) -> Any:
    """A command-line value as a YAML scalar or flow list: 30, 0.5, true, null, [1, 4]."""
    if text in _PLAIN:
        return _PLAIN[text]
    if text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0")):
        return int(text)  # a plain decimal integer (YAML reads 010 as octal: left to it)
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    except RecursionError:
        raise ConfigError(f"value {text[:40]!r}… is nested too deeply; flatten it") from None


def parse_assignments(items: Sequence[str], option: str = "--set") -> dict[str, Any]:
    """``["a.b=1", "c=x"]`` → ``{"a.b": 1, "c": "x"}``; a malformed item raises ConfigError."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{option} expects KEY=VALUE, got '{item}'")
        out[key.strip()] = parse_value(value)
    return out


def resolve_config(
    args: argparse.Namespace,
    section: str,
    *,
    flags: Mapping[str, Any] | None = None,
    extra: Sequence[str] = (),
    also: Sequence[str] = (),
) -> tuple[MemlabConfig, dict[str, Any]]:
    """The merged configuration (see the module docstring) and the config file's mapping
    (for command-specific sections named in ``extra``), from one read of ``--config``
    and one parse of ``--set``. The sections in ``also`` (``dream`` for ``memlab
    compare``) are merged too: their section of the file, then the ``--set`` keys
    under their name (``dream.min_hours=24``); every other key is ``section``'s."""
    data = read_config_file(getattr(args, "config", None), section, extra)
    name = getattr(args, "profile", None) or data.get("profile") or DEFAULT_PROFILE
    config = profile(str(name))
    sets = parse_assignments(getattr(args, "set", []) or [])
    routed: dict[str, dict[str, Any]] = {s: dict(flatten(data.get(s) or {})) for s in also}
    overrides = dict(flatten(data.get(section) or {}))
    overrides.update({k: v for k, v in (flags or {}).items() if v is not None})
    for key, value in sets.items():
        other = next((s for s in also if key.startswith(f"{s}.")), None)
        if other is None:
            overrides[key] = value
        else:
            routed[other][key.removeprefix(f"{other}.")] = value
    routed[section] = {k.removeprefix(f"{section}."): v for k, v in overrides.items()}
    changed = {s: with_overrides(getattr(config, s), keys) for s, keys in routed.items() if keys}
    if changed:
        config = dataclasses.replace(config, **changed)
    return config, data
