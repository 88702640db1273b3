"""The published protocols of the imported benchmarks: unit, question set, measures.

Each ``Protocol`` says how a paper evaluates retrieval on its benchmark, so that
memlab's numbers can stand next to the paper's tables:

* **LoCoMo** — Maharana et al., "Evaluating Very Long-Term Conversational Memory
  of LLM Agents", ACL 2024. Unit: the dialogue turn (``dia_id`` such as
  ``D1:3``); questions: all of them, every category, adversarial included;
  measure: recall accuracy ``R@k`` (the share of a question's evidence turns in
  the top k), overall and per category, for k = 5, 10, 25, 50. A question with
  no evidence turn is counted in the set but not scored (the upstream code scores
  an empty evidence list as 1).
* **LongMemEval** — Wu et al., "LongMemEval: Benchmarking Chat Assistants on
  Long-Term Interactive Memory", arXiv 2410.10813, ICLR 2025. Units: the session
  (default) and the turn (``<session id>_<n>``); only the user's turns are
  indexed; questions: abstention excluded, and a question whose evidence is not
  in an indexed turn is not scored (the single-session-assistant questions when
  only user turns are indexed); measures ``recall_any@k``, ``recall_all@k``,
  ``ndcg_any@k`` for k = 1, 3, 5, 10, 30, 50 (the upstream evaluation's names).
  A session counts as evidence only if it holds an indexed evidence turn, a
  turn only if it lies in an evidence session.
* **BEIR** — Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot
  Evaluation of Information Retrieval Models", NeurIPS 2021 Datasets and
  Benchmarks. Unit: the document (its corpus ``_id``); questions: those of the
  qrels split with a relevant document; measures ``nDCG@k`` (graded) and ``R@k``
  for k = 1, 3, 5, 10, 100 — the tables report nDCG@10 and R@100; a document
  whose id is the query's own id is left out of the ranking, as BEIR's
  evaluation does.

Under a protocol the index's chunk is the paper's unit (``UNIT_CHUNKING``: one turn,
one session, one document per chunk) unless the caller or the dataset's manifest
chooses a chunking. Units keep the source's ids (``memlab.eval.protocols.units``); chunk rankings
become unit rankings by first occurrence (a chunk holding several turns ranks
them in file order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from memlab.datasets import Dataset
from memlab.errors import ConfigError, unknown_name

TURN, SESSION, DOCUMENT = "turn", "session", "document"
UNIT_KINDS = (TURN, SESSION, DOCUMENT)

# The paper's unit as the index's chunk (the default chunking under a protocol): a turn
# and a BEIR document are one record each, a session is its whole file.
UNIT_CHUNKING = {TURN: "record", SESSION: "file", DOCUMENT: "record"}


def is_unit_chunking(mode: str, unit: str) -> bool:
    """Whether chunking ``mode`` makes every chunk one ``unit`` (a BEIR document is one
    record and one file)."""
    return mode == UNIT_CHUNKING[unit] or (unit == DOCUMENT and mode == "file")


@dataclass(frozen=True)
class Protocol:
    name: str
    kind: str  # the importer whose datasets it evaluates (``memlab dataset import KIND``)
    source: str  # the paper
    units: Mapping[str, str]  # judgement level -> unit; the first is the default level
    measures: tuple[str, ...]  # computed and written
    shown: tuple[str, ...]  # printed
    questions: str  # the question set, in words
    roles: tuple[str, ...] = ()  # the speakers the paper indexes (empty: all)
    exclude_abstention: bool = False
    drop_own_id: bool = False  # leave out a unit whose id is the query's id (BEIR)
    no_unit: str = "no relevant unit"  # why a question without relevant units is not scored
    percent: bool = False  # the paper prints its measures as percentages

    def with_measures(self, measures: tuple[str, ...]) -> Protocol:
        """This protocol computing ``measures`` too and showing just them (``--measures``)."""
        return replace(
            self, measures=tuple(dict.fromkeys([*self.measures, *measures])), shown=measures
        )

    @property
    def default_level(self) -> str:
        return next(iter(self.units))

    def level_of(self, unit: str) -> str | None:
        return next((lv for lv, u in self.units.items() if u == unit), None)


def _ks(*families: str, ks: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(f"{f}@{k}" for k in ks for f in families)


PROTOCOLS: dict[str, Protocol] = {
    p.name: p
    for p in (
        Protocol(
            "locomo",
            "locomo",
            "Maharana et al., Evaluating Very Long-Term Conversational Memory of LLM Agents, "
            "ACL 2024",
            {"turn": TURN, "session": SESSION},
            _ks("R", ks=(1, 5, 10, 25, 50)),
            _ks("R", ks=(5, 10, 25, 50)),
            "all questions, every category, adversarial included",
            no_unit="no evidence turn (the upstream code scores an empty evidence list as 1)",
            percent=True,
        ),
        Protocol(
            "longmemeval",
            "longmemeval",
            "Wu et al., LongMemEval: Benchmarking Chat Assistants on Long-Term Interactive "
            "Memory, ICLR 2025 (arXiv 2410.10813)",
            {"session": SESSION, "turn": TURN},
            _ks("recall_any", "recall_all", "ndcg_any", ks=(1, 3, 5, 10, 30, 50)),
            _ks("recall_any", "recall_all", "ndcg_any", ks=(5, 10)),
            "abstention questions excluded",
            roles=("user",),
            exclude_abstention=True,
            no_unit="no evidence in an indexed turn",
        ),
        Protocol(
            "beir",
            "beir",
            "Thakur et al., BEIR: A Heterogeneous Benchmark for Zero-shot Evaluation of "
            "Information Retrieval Models, NeurIPS 2021 Datasets and Benchmarks",
            {"default": DOCUMENT},
            (*_ks("nDCG", ks=(1, 3, 5, 10, 100)), *_ks("R", ks=(1, 3, 5, 10, 100))),
            ("nDCG@10", "R@100"),
            "the queries of the qrels split",
            drop_own_id=True,
            no_unit="no relevant document",
        ),
    )
}


def get_protocol(name: str) -> Protocol:
    if name not in PROTOCOLS:
        raise ConfigError(unknown_name("protocol", name, PROTOCOLS))
    return PROTOCOLS[name]


def check_dataset(protocol: Protocol, dataset: Dataset) -> str:
    """The unit ``dataset`` is evaluated at under ``protocol`` (at its level); a dataset
    the protocol does not apply to is a ConfigError that says what to do."""
    kind = dataset.import_info.get("kind")
    if kind != protocol.kind:
        what = f"made by {kind!r}" if kind else "not an imported dataset"
        raise ConfigError(
            f"--protocol {protocol.name} evaluates datasets made by `memlab dataset import "
            f"{protocol.kind} SRC DEST`; {dataset.name} is {what}"
        )
    if dataset.level not in protocol.units:
        raise ConfigError(unknown_name(f"{protocol.name} level", dataset.level, protocol.units))
    unit = protocol.units[dataset.level]
    if unit == TURN and not any(g.record_ids for g in dataset.groups.values()):
        raise ConfigError(
            f"{dataset.name} records no turn ids (it was imported by an older memlab); "
            f"import it again: memlab dataset import {protocol.kind} SRC DEST --force"
        )
    return unit
