"""From a memlab configuration to the settings an agent ships with.

* ``SETTINGS`` (``memlab.export.mapping``) — the one table from memlab's settings to
  Grok's (SPEC §6's key names) and OpenClaw's (``agents.defaults.memorySearch``);
* ``grok_toml``, ``openclaw_block`` (``memlab.export.agent_settings``) — the two files;
* ``write_export`` (``memlab.export.export_folder``) — a folder with memlab's own config
  (``chosen.yaml``, loadable by ``--config`` and ``--runs NAME=FILE``), both
  agents' files, ``mapping.md`` and, from a sweep, ``decision.md``;
* ``export_sweep`` (``memlab.export.sweep_decision``) — the folder of a sweep's decision.
"""

from memlab.export.agent_settings import grok_toml, openclaw_block, openclaw_json
from memlab.export.export_folder import Exported, write_export
from memlab.export.mapping import SETTINGS, Setting, carry, mapping_markdown, mapping_table
from memlab.export.sweep_decision import export_sweep

__all__ = [
    "SETTINGS",
    "Exported",
    "Setting",
    "carry",
    "export_sweep",
    "grok_toml",
    "mapping_markdown",
    "mapping_table",
    "openclaw_block",
    "openclaw_json",
    "write_export",
]
