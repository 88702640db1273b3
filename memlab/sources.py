"""The source of a chunk (SPEC §1): the one home of the source names and of which
of them are evergreen. Pure.

``global`` (the root's ``MEMORY.md``) and ``workspace`` (a workspace's
``MEMORY.md``) are **evergreen**: they never decay, the evergreen supplement
(SPEC §4.1 step 4) searches only them, and the scaffold rule of the
content-free filter applies only to them. ``session`` logs decay, and so does
every other source string — including ``dream``, the source c0 gives the
``MEMORY.md`` that Dream rewrites (SPEC §7.3 step 4).
"""

from __future__ import annotations

GLOBAL = "global"
WORKSPACE = "workspace"
SESSION = "session"
DREAM = "dream"

EVERGREEN_SOURCES = (GLOBAL, WORKSPACE)
KNOWN_SOURCES = (GLOBAL, WORKSPACE, SESSION, DREAM)


def is_evergreen(source: str) -> bool:
    """global and workspace never decay; every other source string does."""
    return source in EVERGREEN_SOURCES
