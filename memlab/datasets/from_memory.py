"""``dataset_from_memory``: a dataset (format 2) from a real memory folder.

The folder is one memory root or a folder of users' roots
(``memlab.datasets.memory_tree``). Each workspace becomes a group; the groups
of one root share it (``root`` = ``memory``, or ``users/<user>`` for each user),
so the global ``MEMORY.md`` is indexed into each of them, as c0 does. A root
with no workspace is one group of global memory.

Times: every file is written once, at its modification time (``dates="mtime"``)
or at the date in its name (``dates="name"``: ``YYYY-MM-DD`` at UTC midnight,
the rule ``memlab.store.memory_files.filename_date`` applies; files without a date
keep their mtime). The dataset's ``as_of`` is ``as_of`` or the newest file time;
queries (``memlab.datasets.query_file``) may carry their own. The memory
already holds what Dream wrote, so the timeline does not run Dream again
(``timeline.dream`` false).

Safety: the folder is only read, each file through the store's safe reading
(regular files, size cap, UTF-8, no link out of its memory root), and ``dest``
may not lie inside it (nor it inside ``dest``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memlab.datasets.memory_tree import (
    FoundMemory,
    TreeFiles,
    find_memories,
    memory_files,
    safe_id,
)
from memlab.datasets.query_file import QuerySpec, read_query_file
from memlab.datasets.targets import FACT_MARKER_RE
from memlab.datasets.writer import DatasetWriter
from memlab.errors import DatasetError, MemoryRootError, unknown_name
from memlab.store.memory_files import filename_date
from memlab.timefmt import format_iso

DATES = ("mtime", "name")
LICENCE = "private: the team's own memory (do not redistribute)"
GLOBAL_GROUP = "global"


@dataclass
class FromMemoryResult:
    dest: Path
    groups: list[str]
    files: int
    queries: int
    as_of: float
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        lines = [
            f"wrote {self.dest}: {len(self.groups)} group(s) ({', '.join(self.groups)}), "
            f"{self.files} memory files, {self.queries} queries, as of {format_iso(self.as_of)}"
        ]
        for rel, why in self.skipped[:20]:
            lines.append(f"  skipped {rel}: {why}")
        if len(self.skipped) > 20:
            lines.append(f"  … and {len(self.skipped) - 20} more skipped")
        return "\n".join(lines)


def _check_places(root: Path, dest: Path) -> None:
    real_root, real_dest = root.resolve(), dest.resolve()
    if real_dest == real_root or real_root in real_dest.parents:
        raise DatasetError(
            f"DEST {dest} lies inside the memory folder {root}; memlab never writes into "
            "a memory: choose a DEST outside it"
        )
    if real_dest in real_root.parents:
        raise DatasetError(f"the memory folder {root} lies inside DEST {dest}; choose another DEST")


def _time_of(rel: str, mtime_ns: int, dates: str) -> float:
    seconds = filename_date(rel, mtime_ns) if dates == "name" else mtime_ns / 1e9
    return float(int(seconds))


@dataclass
class _Root:
    memory: FoundMemory
    rel: str  # dataset-relative root
    groups: dict[str, str | None]  # group id -> workspace (None: global memory only)


def _plan(memories: Sequence[FoundMemory]) -> list[_Root]:
    used: set[str] = set()

    def unique(name: str) -> str:
        gid, n = name, 2
        while gid in used:
            gid, n = f"{name}-{n}", n + 1
        used.add(gid)
        return gid

    plan = []
    for m in memories:
        user = safe_id(m.user) if m.user is not None else None
        rel = f"users/{user}" if user else "memory"
        prefix = f"{user}." if user else ""
        spaces = m.workspaces or (None,)
        names = [prefix + (safe_id(ws) if ws else user or GLOBAL_GROUP) for ws in spaces]
        groups = {unique(n): ws for n, ws in zip(names, spaces, strict=True)}
        plan.append(_Root(m, rel, groups))
    return plan


def _no_markers(plan: Sequence[_Root], trees: Sequence[TreeFiles]) -> None:
    """Format 2 forbids fact markers in memory text (facts are labelled outside it)."""
    for r, tree in zip(plan, trees, strict=True):
        for f in tree.files:
            found = FACT_MARKER_RE.search(f.text)
            if found:
                where = f"{r.memory.user}/{f.rel}" if r.memory.user else f.rel
                raise DatasetError(
                    f"{where} holds the fact marker '{found.group(0)}' (a label of format-1 "
                    "datasets, which format 2 forbids in memory text); remove such markers "
                    "from a copy of the memory and make the dataset from that copy"
                )


def _query_group(spec: QuerySpec, default: str | None, groups: Sequence[str], where: str) -> str:
    group = spec.group or default or (groups[0] if len(groups) == 1 else None)
    if group is None:
        raise DatasetError(
            f"{where}: query '{spec.query_id}' names no memory and this folder holds several "
            f'({", ".join(groups)}); give each query a "group" (JSON lines) or pass --group'
        )
    if group not in groups:
        raise DatasetError(f"{where}: " + unknown_name("group", group, groups))
    return group


def _write_memory(
    writer: DatasetWriter, r: _Root, tree: TreeFiles, dates: str
) -> list[tuple[str, str]]:
    """One memory root's groups, files and write events; what was skipped (path, why)."""
    for gid, ws in r.groups.items():
        writer.add_group(gid, workspace=ws, root=r.rel)
    first = next(iter(r.groups))
    by_ws = {ws: gid for gid, ws in r.groups.items()}
    for f in tree.files:
        top = f.rel.split("/", 1)[0] if "/" in f.rel else None
        gid = by_ws.get(top, first)  # a global file: its event applies to every group
        writer.add_file(f.rel, f.text, None, group=gid)
        writer.add_event(f.rel, _time_of(f.rel, f.mtime_ns, dates), group=gid)
    shown = f"{r.memory.user}/" if r.memory.user else ""
    return [(shown + rel, why) for rel, why in tree.skipped]


def dataset_from_memory(
    root: str | Path,
    dest: str | Path,
    *,
    queries: str | Path | None = None,
    as_of: float | None = None,
    dates: str = "mtime",
    layout: str = "auto",
    group: str | None = None,
    name: str | None = None,
    force: bool = False,
) -> FromMemoryResult:
    """Write a dataset at ``dest`` from the memory folder ``root`` (module docstring)."""
    if dates not in DATES:
        raise DatasetError(unknown_name("dates rule", dates, DATES))
    root, dest = Path(root).expanduser(), Path(dest).expanduser()
    memories = find_memories(root, layout)
    _check_places(root, dest)
    specs = read_query_file(queries) if queries is not None else []
    plan = _plan(memories)
    trees = [memory_files(r.memory) for r in plan]
    _no_markers(plan, trees)
    times = [_time_of(f.rel, f.mtime_ns, dates) for t in trees for f in t.files]
    if not times:
        raise MemoryRootError(f"{root} holds no readable memory file (*.md)")
    ids = [g for r in plan for g in r.groups]
    chosen = [_query_group(s, group, ids, str(queries)) for s in specs]
    as_of = as_of if as_of is not None else max(times)
    writer = DatasetWriter(
        dest,
        name=name or safe_id(dest.resolve().name),
        licence=LICENCE,
        origin=f"memory folder {root.resolve()} (memlab dataset from-memory, dates from {dates})",
        as_of=as_of,
        description="Queries on a team's own agent memory, judged with memlab (pool, judge).",
        grouped=True,
        format_version=2,
        timeline={"dream": False},
        import_info={"kind": "from-memory", "layout": _layout(memories), "dates": dates},
        force=force,
    )
    skipped = [
        item
        for r, t in zip(plan, trees, strict=True)
        for item in _write_memory(writer, r, t, dates)
    ]
    for spec, gid in zip(specs, chosen, strict=True):
        writer.add_query(
            spec.query_id,
            spec.text,
            group=gid,
            as_of=spec.as_of,
            category=spec.category,
            tags=spec.tags,
            abstention=spec.abstention,
        )
    writer.finish()
    return FromMemoryResult(dest, ids, len(times), len(specs), as_of, skipped)


def _layout(memories: Sequence[FoundMemory]) -> str:
    return "users" if memories[0].user is not None else "root"
