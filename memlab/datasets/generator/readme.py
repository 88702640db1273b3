"""The README.md written beside the generated dataset."""

from __future__ import annotations

from collections import Counter

from memlab.datasets.generator.spec import Generated
from memlab.timefmt import format_iso

CATEGORY_TEXT = {
    "fact": "plain lookups: one session note holds the answer (grade 2).",
    "newest-wins": "a fact changed over time (2 or 3 versions in time order; some first "
    "versions sit in MEMORY.md, tag `stale-evergreen`): the newest version is the answer (2), "
    "older ones are judged 0 and listed in `stale_targets`.",
    "evergreen-crowded": "the answer is only in the global or workspace MEMORY.md, while 18-26 "
    "sessions repeat the query's keywords without answering it.",
    "duplicates": "a problem noted 3-4 times in near-identical words (each grade 1) and its fix "
    "noted once (grade 2): the copies crowd out the fix.",
    "paraphrase": "the same answers as some fact / evergreen / duplicates queries, asked with "
    "few shared keywords (vectors should help).",
    "cjk": "Chinese notes asked with Chinese keywords (tag `zh`; `mixed-script` when the "
    "query mixes scripts) that sit inside longer runs of Chinese (a trigram tokenizer "
    "matters), as natural questions without spaces (`no-spaces`) or in English "
    "(`cross-language`).",
    "abstention": "nothing in the memory answers the query (`abstention: true`, no judgements); "
    "tag `near-miss` when it shares many keywords with the memory.",
}


def render(gen: Generated) -> str:
    sessions = sum("/sessions/" in path for path, _, _ in gen.files)
    counts = Counter(spec.category for _, spec in gen.queries)
    lines = [
        "# agent-memory (generated)",
        "",
        "A coding agent's memory of one project (`ledgerline`, a payments monorepo) over six "
        "months, written by `memlab.datasets.generator` — do not edit by hand. Regenerate with",
        "",
        "```sh",
        f"memlab dataset generate datasets/agent-memory --seed {gen.seed} --force",
        "```",
        "",
        "(`--force` keeps a `vectors/` folder; a test checks the output is byte-identical).",
        "",
        "## Construction",
        "",
        f"* `memory/MEMORY.md` (global preferences) and `memory/<workspace>/MEMORY.md` (project "
        f"conventions), plus {sessions} session logs `YYYY-MM-DD-<slug>-<sid8>.md` between "
        f"{format_iso(gen.files[2][2])[:10]} and {format_iso(gen.files[-1][2])[:10]}; `as_of` = "
        f"{format_iso(gen.as_of)}. `files.jsonl` indexes each log at its start time.",
        "* Sessions hold decisions, gotchas, commands and notes, distractor lines, chatter "
        "sessions, some long sessions (several chunks), some with a flush-appended follow-up, "
        "some Chinese text.",
        "* Every labelled line ends with an invisible marker `<!-- fact:fNNN -->`; judgements name "
        "these facts (`fact:fNNN`), so they survive re-chunking. Ids are opaque on purpose.",
        "* Relevance follows from construction; the generator checks that each query's answer "
        "terms occur only in lines judged (or marked stale) for it, and that no abstention "
        "query's terms occur.",
        "",
        "## Query categories",
        "",
        "| category | queries | what |",
        "|---|---|---|",
    ]
    lines += [f"| {c} | {counts[c]} | {text} |" for c, text in CATEGORY_TEXT.items()]
    lines += [
        "",
        f"{sum(counts.values())} queries in all. Grades: 2 = answer, 1 = partial, 0 = judged "
        "non-relevant.",
        "",
    ]
    return "\n".join(lines)
