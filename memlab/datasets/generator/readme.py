"""The README.md written beside the generated dataset (every number computed from it)."""

from __future__ import annotations

from collections import Counter

from memlab.datasets.generator.draft import DAY, Generated
from memlab.datasets.generator.world import WORKSPACES
from memlab.store.chunker import chunk_markdown
from memlab.timefmt import format_iso

CATEGORY_TEXT = {
    "fact": "a session note states a value (a port, a path, an owner, a fix with its stack "
    "trace); the query shares its words.",
    "paraphrase": "the same kind of value, asked with little more than the component's name in "
    "common (where vectors should help).",
    "newest-wins": "a value written 2–3 times in time order (distinct sessions; tag "
    "`stale-evergreen` when the first version is in MEMORY.md): the newest is the answer (2), "
    "older versions are judged 0 and listed in `stale_targets`.",
    "temporal": "three changes of a value; the query names a time relative to its own "
    "(`earlier today`, `yesterday`, `on Tuesday`, `last week`, `in March`) and exactly one "
    "change falls in that window (2); the others are judged 0.",
    "multi-note": "the answer needs two notes in two places (two values of one component, or "
    "a cause and a later fix that refers back to it by day): nuggets 1 and 2 (recall of all).",
    "preference": "the user's preferences (global MEMORY.md) and project conventions "
    "(workspace MEMORY.md), written at the start or appended later: evergreen.",
    "evergreen-crowded": "the answer is only in a MEMORY.md while 12–20 sessions (half in the "
    "10 days before the query) repeat its words without stating it.",
    "duplicates": "a failure recurs in 8–10 consecutive sessions (each copy its own chunk: same "
    "heading, trace and follow-up, a different run id; nugget 1, grade 1) and its fix is "
    "written once among them (nugget 2, grade 2): more copies than `max_results`.",
    "cjk": "Chinese notes and queries (tags `zh`, `trigram`): the query's Chinese keywords sit "
    "inside longer runs of Chinese, so they are found with the trigram tokenizer, not with "
    "unicode61.",
    "abstention": "nothing answers: entities the memory never mentions (tag `entity`) or a "
    "component's value that was never written while its words are everywhere (`near-miss`).",
}
GAP_EDGES = ((0, 1, "< 1 day"), (1, 7, "1–7 days"), (7, 30, "7–30 days"), (30, 181, "30–180 days"))


def _chunks(gen: Generated) -> dict[str, int]:
    out: Counter[str] = Counter()
    for path, text in gen.final_texts().items():
        top = path.split("/", 1)[0] if "/" in path else "MEMORY.md (global)"
        out[top] += len(chunk_markdown(text))
    return dict(out)


def _gap_rows(gen: Generated) -> list[str]:
    gaps = [q.gap / DAY for q in gen.queries if q.gap is not None]
    rows = []
    for lo, hi, label in GAP_EDGES:
        n = sum(lo <= g < hi for g in gaps)
        rows.append(f"| {label} | {n} | {100 * n / len(gaps):.0f} % |")
    return rows


def _category_rows(gen: Generated) -> list[str]:
    rows = []
    for category, text in CATEGORY_TEXT.items():
        queries = [q for q in gen.queries if q.category == category]
        gaps = sorted(q.gap / DAY for q in queries if q.gap is not None)
        if gaps:
            median = f"{gaps[len(gaps) // 2]:.1f} d"
            recent = f"{100 * sum(g < 7 for g in gaps) / len(gaps):.0f} %"
        else:
            median = recent = "–"
        rows.append(f"| {category} | {len(queries)} | {median} | {recent} | {text} |")
    return rows


HEADER = [
    "# agent-memory (generated)",
    "",
    "Seven months of one developer's coding-agent memory, written by "
    "`memlab.datasets.generator` — do not edit by hand. Regenerate with",
    "",
    "```sh",
    "memlab dataset generate datasets/agent-memory --seed {seed} --force",
    "memlab dataset vectors datasets/agent-memory --embedder minilm",
    "```",
    "",
    "(`--force` keeps `vectors/`; a test checks that the output is byte-identical).",
    "",
]
TIMES_TEXT = (
    "An evergreen answer can only be crowded out once sessions have piled up, so "
    "`evergreen-crowded` queries are asked three weeks or more into their workspace's "
    "sessions (their gaps are long); abstention queries are asked at a uniformly drawn "
    "time after the first three weeks. The Chinese queries are written for the trigram "
    "tokenizer (tag `trigram`): the manifest keeps c0's unicode61 as the dataset's index "
    "and gives the queries tagged `trigram` a trigram index (`index.by_tag`), so an "
    "evaluation gathers them from a trigram replay of the same timeline and the rest from "
    "the unicode61 one (an explicit `--tokenizer` applies to every query instead)."
)
LABELS_TEXT = (
    "Judgements name facts (`fact:fNNNN`, `facts.jsonl`): a fact is one line written "
    "somewhere in the memory; its target resolves, at each query's time, to every chunk "
    "holding that line — in a session log or, after Dream, in `MEMORY.md`. Nothing in the "
    "indexed text marks it. `qrels.tsv` gives grades (2 answer, 1 partial, 0 judged "
    "non-relevant) and nuggets (duplicates and multi-note queries). Relevance follows from "
    "construction and is checked when the dataset is generated: every fact line occurs "
    "exactly once; a query's answer terms (its value, or the component together with the "
    "value) occur only in lines of its judged or stale facts; an abstention query's terms "
    "never occur together in a line its workspace can see; answers are written before "
    "the query; a temporal window holds exactly one change of the value. Fact lines "
    "survive the offline Dream consolidator verbatim (tested)."
)


def _memory_lines(gen: Generated) -> list[str]:
    chunks = _chunks(gen)
    sessions = Counter(p.split("/", 1)[0] for p in gen.final_texts() if "/sessions/" in p)
    flushes = sum(1 for w in gen.writes if "/sessions/" in w.path)
    appends = sum(1 for w in gen.writes if w.path.endswith("MEMORY.md")) - 1 - len(WORKSPACES)
    first, last = min(w.at for w in gen.writes), max(w.at for w in gen.writes)
    lines = [
        "## Memory and timeline",
        "",
        f"One memory root `memory/`: the global `MEMORY.md` and {len(WORKSPACES)} workspaces, "
        "each its own group (index) in `manifest.json`. Writes run from "
        f"{format_iso(first)[:10]} to {format_iso(last)[:10]}; "
        f"the dataset's `as_of` is {format_iso(gen.as_of)}.",
        "",
        "| workspace | group | session logs | chunks |",
        "|---|---|---|---|",
    ]
    for ws in WORKSPACES:
        lines.append(f"| `{ws.dir}` | {ws.group} | {sessions[ws.dir]} | {chunks[ws.dir]} |")
    return [
        *lines,
        f"| global `MEMORY.md` | (all) | – | {chunks['MEMORY.md (global)']} |",
        "",
        f"{sum(chunks.values())} chunks in all (final contents, c0's chunker: 1600 bytes, "
        f"320 characters of overlap). Session logs grow in {flushes} flushes (c0's flush "
        "separator between them); the last write of a session carries `end` — the session "
        f"end that triggers Dream. The user appends to the MEMORY.md files {appends} times "
        "(`append` events, which compose with Dream's rewrites). The manifest asks for Dream "
        "on the timeline (`timeline.dream`) and c0's index options (`index`: unicode61; "
        "trigram for the queries tagged `trigram`).",
        "",
    ]


def _query_lines(gen: Generated) -> list[str]:
    judged = sum(1 for q in gen.queries if not q.abstention)
    return [
        "## Queries",
        "",
        f"{len(gen.queries)} queries, {judged} with judgements. Every query has its own "
        "`as_of` and, when answered, `answer_at` (when its answer was written). The gap "
        "between them is drawn per query: half within 7 days, 30 % at 7–30 days, 20 % at "
        "30–180 days, log-uniform inside each range (recency-biased). Measured:",
        "",
        "| gap after the answer | queries | share |",
        "|---|---|---|",
        *_gap_rows(gen),
        "",
        "| category | queries | median gap | gap < 7 days | what |",
        "|---|---|---|---|---|",
        *_category_rows(gen),
        "",
        TIMES_TEXT,
        "",
    ]


def render(gen: Generated) -> str:
    header = [line.format(seed=gen.seed) for line in HEADER]
    labels = ["## Labels", "", LABELS_TEXT, ""]
    return "\n".join([*header, *_memory_lines(gen), *_query_lines(gen), *labels])
