"""``python -m adversary``: the ``littlestone`` command line (see :mod:`adversary.cli`)."""

import sys

from ._entry import main

if __name__ == "__main__":
    sys.exit(main())
