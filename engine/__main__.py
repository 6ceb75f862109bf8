"""`python -m engine …`: the command-line interface (engine.cli)."""

from engine.cli import main

raise SystemExit(main())
