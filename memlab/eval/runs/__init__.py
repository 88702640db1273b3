"""The runs wing: named rankers and running them over a candidate batch
(``rankers``), runs from elsewhere (``external``), and TREC files other tools
read (``trec_out``). It reads the replay wing only.

Each name loads its module on first use (``memlab.faces``).
"""

from typing import TYPE_CHECKING

from memlab.faces import lazy_face

if TYPE_CHECKING:
    from memlab.eval.runs.external import (
        RunFile,
        external_result,
        parse_run_files,
    )
    from memlab.eval.runs.rankers import (
        DEFAULT_RUNS,
        RANKERS,
        RUN_NAME,
        Run,
        RunResult,
        as_run,
        file_of,
        hit_rows,
        keyword_mode,
        named_configs,
        needed_limit,
        parse_run_specs,
        ranker_configs,
        read_run,
        run_config,
        run_from_file,
        run_label,
        run_of,
        to_file_level,
    )
    from memlab.eval.runs.trec_out import (
        run_files,
        strictly_decreasing,
        write_trec,
    )

_WHERE = {
    "RunFile": "external",
    "parse_run_files": "external",
    "external_result": "external",
    "RANKERS": "rankers",
    "DEFAULT_RUNS": "rankers",
    "ranker_configs": "rankers",
    "Run": "rankers",
    "as_run": "rankers",
    "run_label": "rankers",
    "named_configs": "rankers",
    "RUN_NAME": "rankers",
    "run_from_file": "rankers",
    "read_run": "rankers",
    "parse_run_specs": "rankers",
    "needed_limit": "rankers",
    "keyword_mode": "rankers",
    "RunResult": "rankers",
    "run_config": "rankers",
    "hit_rows": "rankers",
    "run_of": "rankers",
    "file_of": "rankers",
    "to_file_level": "rankers",
    "run_files": "trec_out",
    "write_trec": "trec_out",
    "strictly_decreasing": "trec_out",
}
__all__ = [
    "DEFAULT_RUNS",
    "RANKERS",
    "RUN_NAME",
    "Run",
    "RunFile",
    "RunResult",
    "as_run",
    "external_result",
    "file_of",
    "hit_rows",
    "keyword_mode",
    "named_configs",
    "needed_limit",
    "parse_run_files",
    "parse_run_specs",
    "ranker_configs",
    "read_run",
    "run_config",
    "run_files",
    "run_from_file",
    "run_label",
    "run_of",
    "strictly_decreasing",
    "to_file_level",
    "write_trec",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
