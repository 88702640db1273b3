"""``python -m memlab`` is the ``memlab`` command."""

import sys

from memlab.cli import main

if __name__ == "__main__":
    sys.exit(main())
