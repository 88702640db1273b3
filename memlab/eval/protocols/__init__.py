"""Evaluation under the published protocols of imported benchmarks (LoCoMo, LongMemEval,
BEIR): the paper's unit, question set and measures, with the source's ids.

``prepare_protocol`` then ``run_protocol`` (or ``memlab compare DATASET --protocol
NAME``); ``load_references`` / ``published_table`` put the paper's numbers beside
memlab's; ``write_protocol_outputs`` writes qrels and runs other tools read. The
protocols themselves are described in ``memlab.eval.protocols.spec``.

Each name loads its module on first use (``memlab.faces``): ``--protocol NAME --json``
never loads pandas.
"""

from typing import TYPE_CHECKING

from memlab.faces import lazy_face

if TYPE_CHECKING:
    from memlab.eval.protocols.outputs import protocol_manifest, write_protocol_outputs
    from memlab.eval.protocols.published import References, load_references, published_table
    from memlab.eval.protocols.spec import PROTOCOLS, Protocol, check_dataset, get_protocol
    from memlab.eval.protocols.unit_runs import (
        ProtocolResult,
        chunk_spans,
        prepare_protocol,
        run_protocol,
    )
    from memlab.eval.protocols.units import QuestionSet, UnitSpace, question_set, unit_qrels

_WHERE = {
    "protocol_manifest": "outputs",
    "write_protocol_outputs": "outputs",
    "References": "published",
    "load_references": "published",
    "published_table": "published",
    "PROTOCOLS": "spec",
    "Protocol": "spec",
    "check_dataset": "spec",
    "get_protocol": "spec",
    "ProtocolResult": "unit_runs",
    "chunk_spans": "unit_runs",
    "prepare_protocol": "unit_runs",
    "run_protocol": "unit_runs",
    "QuestionSet": "units",
    "UnitSpace": "units",
    "question_set": "units",
    "unit_qrels": "units",
}
__all__ = [
    "PROTOCOLS",
    "Protocol",
    "ProtocolResult",
    "QuestionSet",
    "References",
    "UnitSpace",
    "check_dataset",
    "chunk_spans",
    "get_protocol",
    "load_references",
    "prepare_protocol",
    "protocol_manifest",
    "published_table",
    "question_set",
    "run_protocol",
    "unit_qrels",
    "write_protocol_outputs",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
