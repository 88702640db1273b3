"""``validate_dataset`` (report every problem) and ``load_dataset`` (raise on errors)."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from memlab.datasets.cross_checks import Levels, NuggetLevels, check_qrels, check_queries
from memlab.datasets.defaults import check_options
from memlab.datasets.facts import check_facts, check_markers
from memlab.datasets.group_events import build_events, v1_events
from memlab.datasets.groups import GroupInfo, check_files, check_record_ids, load_groups
from memlab.datasets.load_cache import cached_load
from memlab.datasets.locate import resolve_dataset
from memlab.datasets.model import JUDGEMENTS, MANIFEST, POOL, Dataset, MemoryGroup, Query
from memlab.datasets.problems import ValidationReport
from memlab.datasets.reader import RawDataset, read_raw
from memlab.datasets.scan import compute_digest
from memlab.datasets.untrusted import reading_dataset
from memlab.errors import DatasetError, unknown_name


def _inspect(path: Path) -> tuple[Dataset | None, ValidationReport]:
    report = ValidationReport(path)
    if not path.is_dir():
        report.add("missing_files", str(path), None, "not a directory", "point at a dataset folder")
        return None, report
    with reading_dataset(path):  # each directory resolved once, not every file's path
        return _checked(path, report)


def _checked(path: Path, report: ValidationReport) -> tuple[Dataset | None, ValidationReport]:
    raw = read_raw(path, report)
    if raw is None:
        return None, report
    groups = load_groups(path, raw, report)
    check_options(raw, report)
    if raw.version >= 2:
        build_events(path, raw, groups, report)
        check_markers(groups, report)
        check_facts(raw, groups, report)
    else:
        check_files(raw, groups, report)
        for group in groups.values():
            group.events = v1_events(group)
    check_record_ids(groups, report)
    queries = check_queries(raw, groups, report)
    levels, nuggets = check_qrels(path, raw, groups, queries, report)
    known = {  # every scanned memory file was hashed as it was read: one read per file
        f"{root}/{rel}": f.sha256
        for g in groups.values()
        for root in [PurePosixPath(g.root_rel).as_posix()]
        for rel, f in g.files.items()
        if f.sha256
    }
    digest = compute_digest(path, [g.root_rel for g in groups.values()], known)
    if raw.manifest.get("digest") != digest:
        judged = (path / JUDGEMENTS).is_file() or (path / POOL).is_file()
        resume = (
            f"if a `memlab judge` session was interrupted, run `memlab judge {path}` again "
            "(it brings the digest up to date); otherwise, "
            if judged
            else ""
        )
        report.add(
            "digest_mismatch",
            MANIFEST,
            None,
            f"digest {raw.manifest.get('digest')} does not match the files ({digest})",
            f"{resume}if the change is intended, run `memlab dataset digest {path} --write`",
        )
    report.stats = _stats(groups, queries, levels, raw.version)
    if report.errors:
        return None, report
    return _build(path, raw, groups, queries, levels, nuggets), report


def _stats(
    groups: dict[str, GroupInfo], queries: list[Query], levels: Levels, version: int
) -> dict[str, int]:
    stats = {
        "groups": len(groups),
        "memory_files": sum(len(g.files) for g in groups.values()),
        "facts": sum(len(g.facts) for g in groups.values()),
        "queries": len(queries),
        "abstention_queries": sum(q.abstention for q in queries),
    }
    if version >= 2:
        stats["events"] = sum(len(g.events) for g in groups.values())
    for level, judged in levels.items():
        stats[f"relevant[{level}]"] = sum(g > 0 for j in judged.values() for g in j.values())
    return stats


def _build(
    path: Path,
    raw: RawDataset,
    groups: dict[str, GroupInfo],
    queries: list[Query],
    levels: Levels,
    nuggets: NuggetLevels,
) -> Dataset:
    m = raw.manifest
    return Dataset(
        path=path,
        name=m.get("name"),
        description=m.get("description", ""),
        licence=m.get("licence"),
        origin=m.get("origin"),
        as_of=m.get("as_of"),
        digest=m.get("digest"),
        format_version=m.get("format_version"),
        groups={
            gid: MemoryGroup(
                gid,
                g.root,
                g.workspace,
                g.as_of,
                dict(g.created_at),
                g.events,
                g.root_rel,
                dict(g.origin_ids),
                dict(g.record_ids),
            )
            for gid, g in groups.items()
        },
        queries=tuple(queries),
        level=raw.levels[0][0],
        qrels_by_level=levels,
        facts={gid: {f: tuple(locs) for f, locs in g.facts.items()} for gid, g in groups.items()},
        fact_texts={gid: dict(g.fact_texts) for gid, g in groups.items() if g.fact_texts},
        nuggets_by_level=nuggets,
        index=dict(m.get("index", {})),
        timeline=dict(m.get("timeline", {})),
        import_info=dict(m.get("import", {})),
    )


def validate_dataset(path: str | Path) -> ValidationReport:
    """Check a dataset folder; the report lists every problem (file, line, fix) and counts."""
    return _inspect(Path(path).resolve())[1]


def _load(folder: Path) -> Dataset:
    dataset, report = _inspect(folder)
    report.raise_if_errors()
    if dataset is None:  # only possible with errors, which raised above
        raise DatasetError(f"dataset {folder} could not be loaded")
    return dataset


def load_dataset(path: str | Path, level: str | None = None) -> Dataset:
    """Load a dataset (a folder, or a shipped dataset's name such as ``"agent-memory"``);
    ``DatasetError`` lists every error if it is broken.

    ``level`` picks the judgement level (default: the first the manifest lists).
    Warnings (e.g. unjudged queries) do not stop loading; see ``validate_dataset``.
    A dataset whose folder did not change since it last loaded is reused from
    ``memlab.datasets.load_cache`` (the same dataset; any change: a full load).
    """
    dataset = cached_load(resolve_dataset(path), _load)
    if level is not None and level not in dataset.levels:
        raise DatasetError(unknown_name("judgement level", level, dataset.levels))
    return dataset if level is None else dataset.with_level(level)


__all__ = ["load_dataset", "validate_dataset"]
