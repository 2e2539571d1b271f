"""`python -m rulesdsl`: the same as the `rulesdsl` command."""

import sys

from rulesdsl.cli import main

sys.exit(main())
