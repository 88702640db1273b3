"""Configuration objects ↔ plain data: ``to_dict``, ``config_hash``, ``from_dict``,
``with_overrides`` (dotted paths, the grid-file syntax of sweeps) and ``flatten``
(nested mappings → dotted paths).

Generic over frozen dataclasses; unknown keys raise ``ConfigError`` with a
did-you-mean suggestion and the valid keys. Re-exported by ``memlab.config``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, Union

from memlab.errors import ConfigError, did_you_mean

T = TypeVar("T")

# Field metadata of a later option: left out of ``to_dict`` while at its default, so
# configurations that do not use it keep their dictionaries and hashes.
OMIT_DEFAULT = {"omit_default": True}

# Python attribute names that differ from the public key (``lambda`` is reserved).
_KEY_ALIASES = {"lambda": "lambda_"}
_PUBLIC_KEYS = {v: k for k, v in _KEY_ALIASES.items()}


def to_dict(obj: Any) -> Any:
    """Plain, JSON-ready data for a config object (public key names)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            _PUBLIC_KEYS.get(f.name, f.name): to_dict(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if not (f.metadata.get("omit_default") and getattr(obj, f.name) == f.default)
        }
    if isinstance(obj, Mapping):
        return {str(k): to_dict(v) for k, v in obj.items()}
    if isinstance(obj, tuple):
        return [to_dict(v) for v in obj]
    return obj


def config_hash(obj: Any) -> str:
    """A stable short hash of a config object (for manifests and result files)."""
    blob = json.dumps(to_dict(obj), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def from_dict(cls: type[T], data: Mapping[str, Any], *, where: str = "") -> T:
    """Build dataclass ``cls`` from ``data``; unknown keys raise ConfigError."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where or cls.__name__}: expected a mapping, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        attr, path = _field(cls, key, where)
        kwargs[attr] = _coerce(hints[attr], value, path)
    return cls(**kwargs)


def _field(cls: Any, key: str, where: str) -> tuple[str, str]:
    """The attribute for public ``key`` of dataclass ``cls`` and its dotted path;
    an unknown key raises ConfigError with a suggestion and the valid keys."""
    names = [f.name for f in dataclasses.fields(cls)]
    attr = _KEY_ALIASES.get(key, key)
    path = f"{where}.{key}" if where else key
    if attr not in names:
        public = [_PUBLIC_KEYS.get(n, n) for n in names]
        raise ConfigError(
            f"unknown configuration key '{path}';{did_you_mean(key, public)}"
            f" valid keys here: {', '.join(public)}"
        )
    return attr, path


def flatten(
    data: Mapping[str, Any],
    prefix: str = "",
    *,
    leaf: Callable[[Mapping[str, Any]], bool] | None = None,
) -> dict[str, Any]:
    """Nested mappings → dotted paths: ``{"mmr": {"lambda": 0.5}}`` → ``{"mmr.lambda": 0.5}``.

    Every mapping is descended into (``source_weights`` too: ``source_weights.session``),
    except those for which ``leaf`` is true, which stay values.
    """
    out: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and not (leaf and leaf(value)):
            out.update(flatten(value, path + ".", leaf=leaf))
        else:
            out[path] = value
    return out


def with_overrides(obj: T, overrides: Mapping[str, Any]) -> T:
    """Return a copy of ``obj`` with dotted-path overrides applied.

    ``with_overrides(search, {"mmr.lambda": 0.5, "source_weights.session": 0.8})``.
    """
    nested: dict[str, Any] = {}
    for dotted, value in overrides.items():
        node = nested
        parts = dotted.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"configuration path '{dotted}' conflicts with another override")
        node[parts[-1]] = value
    return _merge(obj, nested, "")


def _merge(obj: Any, changes: Mapping[str, Any], where: str) -> Any:
    cls = type(obj)
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for key, value in changes.items():
        attr, path = _field(cls, key, where)
        current = getattr(obj, attr)
        if isinstance(value, Mapping) and dataclasses.is_dataclass(current):
            kwargs[attr] = _merge(current, value, path)
        elif isinstance(value, Mapping) and isinstance(current, Mapping):
            merged = dict(current)
            merged.update(value)
            kwargs[attr] = _coerce(hints[attr], merged, path)
        else:
            kwargs[attr] = _coerce(hints[attr], value, path)
    return dataclasses.replace(obj, **kwargs)


def _coerce(hint: Any, value: Any, path: str) -> Any:
    """Check ``value`` against a type hint, converting where it is lossless."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(arg, value, path)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(errors[0] if errors else f"{path}: invalid value {value!r}")
    if dataclasses.is_dataclass(hint):
        if dataclasses.is_dataclass(value):
            return value
        return from_dict(hint, value, where=path)  # type: ignore[arg-type]
    if origin is not None and issubclass(origin, Mapping):
        if not isinstance(value, Mapping):
            raise ConfigError(f"{path}: expected a mapping, got {value!r}")
        _, vtype = typing.get_args(hint)
        return {str(k): _coerce(vtype, v, f"{path}.{k}") for k, v in value.items()}
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(f"{path}: expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise ConfigError(f"{path}: expected an integer, got {value!r}")
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise ConfigError(f"{path}: expected a number, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise ConfigError(f"{path}: expected a string, got {value!r}")
    return value
