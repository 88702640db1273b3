"""The replay wing (the bottom of eval/): the memory every query sees at its own
time — index options and Dream on the timeline (``memory``), the working copy
replayed event by event (``working_copy``), each query's candidates and
judgements as of its time (``as_of``, ``gathering``, ``judged``), the product on
disk (``products``), replaying groups on workers (``spread``), and the prepared
dataset (``prepared``) with its embedder and shipped vectors.

Each name loads its module on first use (``memlab.faces``).
"""

from typing import TYPE_CHECKING

from memlab.faces import lazy_face

if TYPE_CHECKING:
    from memlab.eval.replay.as_of import (
        GroupProduct,
        QueryCandidatesView,
        Timeline,
        replay_queries,
    )
    from memlab.eval.replay.embedders import (
        SPEC_OF_ID,
        CacheOnly,
        evaluation_embedder,
        shipped_vectors,
        spec_for_id,
    )
    from memlab.eval.replay.gathering import (
        ChunkFeatures,
        gather_into,
    )
    from memlab.eval.replay.index_options import (
        INDEX_OPTIONS,
        check_index_value,
        index_options_of,
        index_section,
        options_of_section,
    )
    from memlab.eval.replay.judged import (
        QueryJudgement,
        RelevantChunk,
        judge_query,
    )
    from memlab.eval.replay.memory import (
        Memory,
        memory_for,
    )
    from memlab.eval.replay.precompute import (
        DEFAULT_PROFILES,
        VectorReport,
        default_memories,
        precompute_vectors,
        replay_texts,
    )
    from memlab.eval.replay.prepared import (
        DEFAULT_LIMIT,
        Prepared,
        PrepareOptions,
        default_work_dir,
        gather_batch,
        prepare,
        prepare_dataset,
    )
    from memlab.eval.replay.products import (
        REPLAY_FORMAT,
        load_product,
        product_key,
        product_path,
        save_product,
    )
    from memlab.eval.replay.replay_progress import (
        MIN_STEPS,
        ReplayProgress,
    )
    from memlab.eval.replay.spread import (
        replay_group,
        replay_groups,
    )
    from memlab.eval.replay.working_copy import (
        DreamRecord,
        GroupReplay,
        logical_mtime_ns,
    )

_WHERE = {
    "GroupProduct": "as_of",
    "replay_queries": "as_of",
    "Timeline": "as_of",
    "QueryCandidatesView": "as_of",
    "SPEC_OF_ID": "embedders",
    "spec_for_id": "embedders",
    "CacheOnly": "embedders",
    "shipped_vectors": "embedders",
    "evaluation_embedder": "embedders",
    "ChunkFeatures": "gathering",
    "gather_into": "gathering",
    "INDEX_OPTIONS": "index_options",
    "check_index_value": "index_options",
    "index_options_of": "index_options",
    "index_section": "index_options",
    "options_of_section": "index_options",
    "RelevantChunk": "judged",
    "QueryJudgement": "judged",
    "judge_query": "judged",
    "Memory": "memory",
    "memory_for": "memory",
    "DEFAULT_PROFILES": "precompute",
    "VectorReport": "precompute",
    "default_memories": "precompute",
    "replay_texts": "precompute",
    "precompute_vectors": "precompute",
    "DEFAULT_LIMIT": "prepared",
    "default_work_dir": "prepared",
    "Prepared": "prepared",
    "prepare": "prepared",
    "PrepareOptions": "prepared",
    "prepare_dataset": "prepared",
    "gather_batch": "prepared",
    "REPLAY_FORMAT": "products",
    "product_key": "products",
    "product_path": "products",
    "load_product": "products",
    "save_product": "products",
    "MIN_STEPS": "replay_progress",
    "ReplayProgress": "replay_progress",
    "replay_group": "spread",
    "replay_groups": "spread",
    "DreamRecord": "working_copy",
    "logical_mtime_ns": "working_copy",
    "GroupReplay": "working_copy",
}
__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_PROFILES",
    "INDEX_OPTIONS",
    "MIN_STEPS",
    "REPLAY_FORMAT",
    "SPEC_OF_ID",
    "CacheOnly",
    "ChunkFeatures",
    "DreamRecord",
    "GroupProduct",
    "GroupReplay",
    "Memory",
    "PrepareOptions",
    "Prepared",
    "QueryCandidatesView",
    "QueryJudgement",
    "RelevantChunk",
    "ReplayProgress",
    "Timeline",
    "VectorReport",
    "check_index_value",
    "default_memories",
    "default_work_dir",
    "evaluation_embedder",
    "gather_batch",
    "gather_into",
    "index_options_of",
    "index_section",
    "judge_query",
    "load_product",
    "logical_mtime_ns",
    "memory_for",
    "options_of_section",
    "precompute_vectors",
    "prepare",
    "prepare_dataset",
    "product_key",
    "product_path",
    "replay_group",
    "replay_groups",
    "replay_queries",
    "replay_texts",
    "save_product",
    "shipped_vectors",
    "spec_for_id",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
