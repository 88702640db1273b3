"""Consolidators: what turns a Dream input into a new ``MEMORY.md``.

One interface (``Consolidator.consolidate(dream_input) -> response``) and three
kinds: the deterministic ``OfflineConsolidator`` (no model needed), a
``CallableConsolidator`` adapter for any function — a real LLM client — and a
``ScriptedConsolidator`` for tests. The response goes through the same
processing whatever produced it (``memlab.dream.response``).

``get_consolidator(name)`` resolves a registry key ("offline", "noreply") or a
``module:function`` import path whose function takes the prompt and returns text.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from memlab.dream.offline import OfflineConsolidator
from memlab.errors import ConfigError, DreamError, unknown_name

DREAM_INSTRUCTIONS = (
    "You maintain the long-term memory of an AI coding agent for one workspace. Below are the "
    "existing memory (if any) and recent session logs. Merge them into a new MEMORY.md: keep "
    "durable facts, decisions and preferences; when a fact changed, keep only its newest "
    "version; drop chatter. Reply with the complete Markdown document, organised under "
    "'## ' headings, and nothing else. If nothing is worth remembering, reply NO_REPLY."
)


@runtime_checkable
class Consolidator(Protocol):
    name: str

    def consolidate(self, dream_input: str) -> str: ...


class CallableConsolidator:
    """Adapter for any ``prompt -> text`` function (e.g. an LLM client's completion call)."""

    def __init__(
        self,
        fn: Callable[[str], str],
        *,
        instructions: str = DREAM_INSTRUCTIONS,
        name: str = "callable",
    ) -> None:
        self.fn = fn
        self.instructions = instructions
        self.name = name

    def prompt(self, dream_input: str) -> str:
        return f"{self.instructions}\n\n{dream_input}" if self.instructions else dream_input

    def consolidate(self, dream_input: str) -> str:
        return self.fn(self.prompt(dream_input))


class ScriptedConsolidator:
    """Returns (or raises) the scripted responses in order and records every input."""

    name = "scripted"

    def __init__(
        self, responses: Sequence[str | BaseException], *, repeat_last: bool = False
    ) -> None:
        if not responses:
            raise ValueError("ScriptedConsolidator needs at least one response")
        self.responses = list(responses)
        self.repeat_last = repeat_last
        self.inputs: list[str] = []

    def consolidate(self, dream_input: str) -> str:
        index = len(self.inputs)
        self.inputs.append(dream_input)
        if index >= len(self.responses):
            if not self.repeat_last:
                raise DreamError(
                    f"scripted consolidator ran out of responses after {index} call(s)"
                )
            index = len(self.responses) - 1
        response = self.responses[index]
        if isinstance(response, BaseException):
            raise response
        return response


def _noreply() -> Consolidator:
    return ScriptedConsolidator(["NO_REPLY"], repeat_last=True)


CONSOLIDATORS: dict[str, Callable[[], Consolidator]] = {
    "offline": OfflineConsolidator,
    "noreply": _noreply,
}


def get_consolidator(name: str) -> Consolidator:
    """A registered consolidator, or ``module:function`` wrapped in a CallableConsolidator."""
    if name in CONSOLIDATORS:
        return CONSOLIDATORS[name]()
    if ":" in name:
        module_name, _, attr = name.partition(":")
        dotted = module_name.replace(".", "")
        if not (dotted.isidentifier() and attr.isidentifier()):
            raise ConfigError(
                f"consolidator '{name}' is not module:function; give e.g. mypkg.llm:complete"
            )
        try:
            fn = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError, ValueError) as exc:
            raise ConfigError(
                f"cannot load consolidator '{name}': {exc}; give an importable module:function"
            ) from None
        if not callable(fn):
            raise ConfigError(f"consolidator '{name}' is not callable")
        return CallableConsolidator(fn, name=name)
    raise ConfigError(
        unknown_name("consolidator", name, CONSOLIDATORS)
        + " (or module:function for any prompt -> text callable)"
    )
