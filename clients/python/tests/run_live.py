"""Runs test_live.py and prints one JSON line: counts, each failure's text, and FACTS.

Exit status 0 only when every test passed (none skipped).
"""

import io
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import test_live  # noqa: E402


def main() -> int:
    suite = unittest.defaultTestLoader.loadTestsFromModule(test_live)
    log = io.StringIO()
    result = unittest.TextTestRunner(stream=log, verbosity=2).run(suite)
    summary = {
        "python": sys.version.split()[0],
        "run": result.testsRun,
        "failures": [{"test": str(t), "text": text} for t, text in result.failures + result.errors],
        "skipped": [str(t) for t, _ in result.skipped],
        "facts": test_live.FACTS,
        "log": log.getvalue(),
    }
    print(json.dumps(summary))
    return 0 if result.wasSuccessful() and not result.skipped else 1


if __name__ == "__main__":
    sys.exit(main())
