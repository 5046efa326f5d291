# pytest set-up for the Python module and the JSON schemas (issue 19). tools/test.sh runs
#   PYTHONPATH=build/python CUBEX_EXE=build/cubex python3 -m pytest tests/python
import os
import pathlib
import signal

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def puzzle_file():
    def path(rel):
        p = ROOT / "puzzles" / rel
        assert p.exists(), p
        return str(p)

    return path


@pytest.fixture
def cubex_exe():
    exe = os.environ.get("CUBEX_EXE", str(ROOT / "build" / "cubex"))
    assert os.access(exe, os.X_OK), f"cubex program not found at {exe} (set CUBEX_EXE)"
    return exe


@pytest.fixture
def sigint_raises():
    """Python's own SIGINT handler (KeyboardInterrupt) for the test, whatever the parent set:
    a run started with SIGINT ignored (a background job, `(trap '' INT; ...)`) has none."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)
