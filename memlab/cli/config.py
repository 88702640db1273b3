"""``memlab config export``: any profile or config file as the agents' settings."""

from __future__ import annotations

import argparse
from typing import Any

from memlab.cli.commands import summary
from memlab.cli.options import add_config_args
from memlab.config import CHUNKING_MODES, TOKENIZERS


def register(sub: Any) -> None:
    p = sub.add_parser(
        "config",
        help=summary("config"),
        description="Configurations: `memlab config export --out DIR` writes the "
        "configuration the options give (profile, --config, --set, index options) as "
        "config.yaml (memlab's, for --config and --runs NAME=FILE), grok-settings.toml "
        "(SPEC §6's keys), openclaw.json (agents.defaults.memorySearch) and mapping.md "
        "(every setting and where it went, or why not).",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    e = actions.add_parser("export", help="write the configuration's files to --out DIR")
    add_config_args(e, "search", "half_life_days=30, mmr.lambda=0.5")
    e.add_argument("--tokenizer", choices=TOKENIZERS, help="the index's FTS5 tokenizer")
    e.add_argument("--chunk-bytes", type=int, metavar="N", help="chunk size in UTF-8 bytes")
    e.add_argument("--chunk-overlap", type=int, metavar="N", help="chunk overlap in characters")
    e.add_argument("--chunking", choices=CHUNKING_MODES, help="chunking mode")
    e.add_argument("--roles", metavar="ROLES", help="indexed speakers (comma-separated)")
    e.add_argument("--out", required=True, metavar="DIR", help="the folder to write")
    e.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from memlab.cli.evaluate import resolved
    from memlab.eval.replay.memory import Memory
    from memlab.export.export_folder import write_export

    found = resolved(args)  # one read of --config, one parse of --set
    start = found.config
    options = {k: v for k, v in found.index.items() if v is not None}
    index = Memory(start.index).refined(**options).index
    name = start.profile
    sources = ", ".join(
        f"{flag} {value}"
        for flag, value in (("--profile", args.profile), ("--config", args.config))
        if value
    )
    header = f"exported by memlab config export from profile {name}" + (
        f" ({sources})" if sources else ""
    )
    done = write_export(
        args.out,
        start.search,
        index=index,
        profile_name=name,
        index_options=options,
        yaml_name="config.yaml",
        header=header,
    )
    print("\n".join(done.lines()))
    return 0
