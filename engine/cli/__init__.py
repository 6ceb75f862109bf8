"""The CLI: `python -m engine devices|models|run|results|cancel|compare|db|sweep` (design §2), one package.

  parser.py   the parser and the dispatch (`build_parser`, `main`)
  common.py   exit codes, the one-line `fail`, a run's one-line summary
  run.py      run, devices, models
  results.py  results list|show|export|import, cancel
  imports.py  results import --mapping (another tool's file)
  db.py       results push|pull, db status|upgrade
  compare.py  compare (its text tables: compare_table.py)
  table.py    tables that fit 100 columns, or CSV (`--format table|json|csv`, the prose under `--verbose`)
  sweep.py    sweep (engine.sweep)

To add a command: a sub-parser in `parser.build_parser`, a `cmd_NAME(args) -> int` in the module of its group
(or a new one here), and a line in `parser.main`'s table.
"""

from engine.cli.common import EXIT_FAILED, EXIT_INVALID, EXIT_OK
from engine.cli.parser import build_parser, main

__all__ = ["EXIT_FAILED", "EXIT_INVALID", "EXIT_OK", "build_parser", "main"]
