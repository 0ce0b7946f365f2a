"""``python -m sklearn_macrof1``: the ``macrof1`` command line."""

import sys

from ._cli._main import main

if __name__ == "__main__":
    sys.exit(main())
