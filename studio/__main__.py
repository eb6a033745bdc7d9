"""`python -m studio` is the `studio` command."""

import sys

from studio.cli import main

sys.exit(main())
