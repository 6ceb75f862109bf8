"""`python -m engine.worker RUN_DIR`: run one benchmark in this process (engine.worker.main)."""

import sys

from engine.worker.main import main

if len(sys.argv) != 2:
    print("usage: python -m engine.worker RUN_DIR", file=sys.stderr)
    sys.exit(2)
sys.exit(main(sys.argv[1]))
