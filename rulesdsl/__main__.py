"""`python -m rulesdsl`: the same as the `rulesdsl` command."""

import sys

from rulesdsl.commands.cli import main

sys.exit(main())
