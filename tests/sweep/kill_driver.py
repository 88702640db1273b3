"""``memlab sweep`` saving after every scored chunk, for the SIGKILL campaign.

Run as ``python -m tests.sweep.kill_driver <memlab sweep arguments>``: the same
command line as ``memlab sweep``, with the checkpoint interval set to 0 so a kill at
a random moment lands between (or inside) checkpoint writes as often as possible.
"""

from __future__ import annotations

import sys

from memlab.cli import main
from memlab.sweep import runner

if __name__ == "__main__":
    runner.run_points.__kwdefaults__["checkpoint_secs"] = 0.0
    sys.exit(main(["sweep", *sys.argv[1:]]))
