# docs/python.md: its complete example runs and prints what the page says it prints.
import os
import pathlib
import re
import subprocess
import sys

import cubex

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_complete_example_prints_what_the_page_shows(tmp_path):
    page = (ROOT / "docs" / "python.md").read_text()
    m = re.search(r"## A complete example\n.*?```python\n(.*?)```\n\nIt prints:\n\n```text\n(.*?)```", page, re.S)
    assert m, "docs/python.md: no complete example followed by its output"
    code, shown = m.groups()
    (tmp_path / "example.py").write_text(code)
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")  # "run from the repository's root"
    # the cubex under test, wherever it is (PYTHONPATH may be relative to the checkout)
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=str(pathlib.Path(cubex.__file__).parents[1]))
    r = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == shown
    assert (tmp_path / "soma-first.svg").read_text().startswith("<?xml")
    assert "import cubex" in code and "cubex.load(" in code
