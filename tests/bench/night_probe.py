"""`nightdesk` with a probe: the verifier's CPU time, each tool run and every verified trace's
tool-call durations are recorded (`Probe.instrument`); the answering phase's wall and CPU seconds
are timed around the flow's `answer_tickers` (or `run_shards`).

Run: python -m tests.bench.night_probe PROBE.json run --data ... (the CLI's own arguments).
"""

from __future__ import annotations

import atexit
import sys
from pathlib import Path

from tests.bench.probe import Probe


def main() -> None:
    target, args = Path(sys.argv[1]), sys.argv[2:]
    probe = Probe()
    probe.instrument()
    probe.instrument_night()
    atexit.register(probe.write, target)
    sys.argv = ["nightdesk", *args]
    from flows.cli.main import main as cli

    cli()


if __name__ == "__main__":
    main()
