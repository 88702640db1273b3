"""Where judgements go, the moment they are made: qrels, the sidecar, queries, the digest.

* Every grade is one line appended to the qrels file (``query_id 0 target
  grade``, TREC), fsynced before the judge sees the next candidate; a changed
  grade rewrites the file atomically (qrels hold one line per judgement).
* Who judged, when (wall clock: this is the judging, not an evaluation) and
  any notes go to a sidecar, one JSON line per action (``judgements.jsonl``
  beside the dataset's ``qrels.tsv``; ``<name>.judgements.jsonl`` beside
  another judge's ``<name>.tsv``).
* Marking a query abstention and adding a query rewrite / append
  ``queries.jsonl``; the manifest's digest is brought up to date after every
  write (atomically), so the dataset stays loadable.

A kill can cut only the line being written: ``Journal.open`` cuts a torn last
line off each file (and says so), then recomputes the digest. A second judge
(qrels outside the dataset) never changes the dataset: an abstention is then
recorded as 0 grades and a sidecar line.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.datasets.folder import manifest_text
from memlab.datasets.jsonl import dumps
from memlab.datasets.model import JUDGEMENTS, MANIFEST, QRELS, QUERIES
from memlab.datasets.scan import digest_listing, digest_of
from memlab.datasets.untrusted import MAX_TABLE_BYTES, read_dataset_file
from memlab.errors import DatasetError
from memlab.judging.judgement_files import append_lines, check_regular, repair_tail
from memlab.safefs import write_atomic
from memlab.timefmt import format_iso


def default_judge() -> str:
    """The login name (the judge's name when none is given)."""
    for key in ("MEMLAB_JUDGE", "USER", "LOGNAME", "USERNAME"):
        if os.environ.get(key):
            return os.environ[key]
    return "unknown"


def sidecar_for(qrels: Path, dataset_dir: Path) -> Path:
    if qrels == dataset_dir / QRELS:
        return dataset_dir / JUDGEMENTS
    return qrels.with_name(qrels.stem + ".judgements.jsonl")


def read_grades(path: Path) -> dict[str, dict[str, int]]:
    """``{query_id: {target: grade}}`` of a qrels file (max over nuggets); {} if missing."""
    out: dict[str, dict[str, int]] = {}
    if not path.is_file():
        return out
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        cols = line.split()
        if not cols:
            continue
        if len(cols) != 4 or not cols[3].lstrip("-").isdigit():
            raise DatasetError(
                f"{path}:{number}: expected 'query_id 0 target grade'; fix or remove the line"
            )
        judged = out.setdefault(cols[0], {})
        judged[cols[2]] = max(int(cols[3]), judged.get(cols[2], int(cols[3])))
    return out


@dataclass
class Journal:
    """The judgement files of one judge on one dataset (module docstring)."""

    dataset_dir: Path
    qrels_path: Path
    sidecar_path: Path
    judge: str
    grades: dict[str, dict[str, int]] = field(default_factory=dict)
    repaired: list[str] = field(default_factory=list)
    clock: Callable[[], float] = time.time
    _listing: dict[str, str] | None = field(default=None, repr=False)

    @property
    def owns_dataset(self) -> bool:
        """True when the judge writes the dataset's own qrels (and may change its queries)."""
        return self.qrels_path == self.dataset_dir / QRELS

    @classmethod
    def open(
        cls,
        dataset_dir: str | Path,
        *,
        qrels: str | Path | None = None,
        judge: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> Journal:
        folder = Path(dataset_dir).resolve()
        given = Path(qrels) if qrels else folder / QRELS
        path = given.parent.resolve() / given.name  # the file itself: never through a link
        journal = cls(folder, path, sidecar_for(path, folder), judge or default_judge())
        journal.clock = clock
        files = [path, journal.sidecar_path]
        if journal.owns_dataset:
            files.append(folder / QUERIES)
        for file in files:
            check_regular(file, "a judgement file")
        for file in files:
            torn = repair_tail(file)
            if torn is not None:
                journal.repaired.append(
                    f"{file.name}: cut a line torn by an interrupted write ({torn[:60]!r})"
                )
        journal.grades = read_grades(path)
        if journal.owns_dataset and journal._update_digest(full=True):
            journal.repaired.append(
                f"{MANIFEST}: digest brought up to date with the judgement files"
            )
        return journal

    # ------------------------------------------------------------------ writes

    def record(self, query_id: str, target: str, grade: int, notes: str = "") -> None:
        """Save one grade now (append, or rewrite when the target was judged before)."""
        if grade not in (0, 1, 2):
            raise DatasetError(f"grade {grade} must be 0 (not relevant), 1 (partial) or 2")
        previous = self.grades.get(query_id, {}).get(target)
        if previous is None:
            append_lines(self.qrels_path, [f"{query_id}\t0\t{target}\t{grade}"])
        elif previous != grade:
            self._rewrite_grade(query_id, target, grade)
        self.grades.setdefault(query_id, {})[target] = grade
        self._changed(self.qrels_path)
        action = "grade" if previous is None else "regrade"
        self.log(action, query_id, target=target, grade=grade, notes=notes)

    def record_many(self, query_id: str, targets: list[str], grade: int) -> None:
        """Grade several unjudged targets of a query in one append (an abstention's zeros)."""
        fresh = [t for t in targets if t not in self.grades.get(query_id, {})]
        append_lines(self.qrels_path, [f"{query_id}\t0\t{t}\t{grade}" for t in fresh])
        for t in fresh:
            self.grades.setdefault(query_id, {})[t] = grade
        self._changed(self.qrels_path)

    def _rewrite_grade(self, query_id: str, target: str, grade: int) -> None:
        lines = []
        for line in self.qrels_path.read_text(encoding="utf-8").splitlines():
            cols = line.split()
            if len(cols) == 4 and cols[0] == query_id and cols[2] == target:
                line = f"{cols[0]}\t{cols[1]}\t{cols[2]}\t{grade}"
            lines.append(line)
        write_atomic(self.qrels_path, "".join(line + "\n" for line in lines))

    def mark_abstention(self, query_id: str) -> None:
        """Set ``abstention: true`` on the query in queries.jsonl (the dataset's judge only)."""
        if not self.owns_dataset:
            return
        path = self.dataset_dir / QUERIES
        lines = path.read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines if line.strip()]
        for record in records:
            if record.get("query_id") == query_id:
                record["abstention"] = True
        write_atomic(path, "".join(dumps(r) + "\n" for r in records))
        self._changed(path)

    def add_query(self, record: Mapping[str, Any]) -> None:
        """Append a query to queries.jsonl (the dataset's judge only)."""
        if not self.owns_dataset:
            raise DatasetError(
                "queries are added by the dataset's own judge (without --qrels); "
                "a second judge judges the same queries"
            )
        path = self.dataset_dir / QUERIES
        append_lines(path, [dumps(record)])
        self._changed(path)
        self.log("query", str(record["query_id"]), notes=str(record.get("text", "")))

    def log(self, action: str, query_id: str, **fields: Any) -> None:
        """One sidecar line: who did what, when."""
        record = {
            "action": action,
            "query_id": query_id,
            "judge": self.judge,
            "at": format_iso(round(self.clock())),
            **{k: v for k, v in fields.items() if v not in (None, "")},
        }
        if not self.owns_dataset:
            record["qrels"] = self.qrels_path.name
        append_lines(self.sidecar_path, [dumps(record)])

    # ------------------------------------------------------------------ the digest

    def _changed(self, path: Path) -> None:
        if self.owns_dataset:
            self._update_digest(changed=path.name)

    def _update_digest(self, *, full: bool = False, changed: str | None = None) -> bool:
        """Bring manifest.json's digest up to date (hashing only ``changed`` when known);
        True if it changed."""
        if full or self._listing is None:
            self._listing = dict(digest_listing(self.dataset_dir))
        elif changed is not None:
            data = read_dataset_file(self.dataset_dir / changed, self.dataset_dir, MAX_TABLE_BYTES)
            self._listing[changed] = hashlib.sha256(data).hexdigest()
        manifest_path = self.dataset_dir / MANIFEST
        raw = read_dataset_file(manifest_path, self.dataset_dir, MAX_TABLE_BYTES)
        manifest = json.loads(raw.decode("utf-8"))
        digest = digest_of(self._listing.items())
        if manifest.get("digest") == digest:
            return False
        manifest["digest"] = digest
        write_atomic(manifest_path, manifest_text(manifest))
        return True
