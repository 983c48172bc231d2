"""``python -m hanabi.client.cli``: the same as the ``hanabi-client`` command."""

import sys

from .entry import main

sys.exit(main())
