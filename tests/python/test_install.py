# `pip install --no-build-isolation <checkout>` into a fresh virtual environment (issue 38), then
# the one-liner run outside the checkout. The install reuses the CMake build folder the
# tested module comes from (CUBEX_CMAKE_BUILD_DIR, setup.py), so that it compiles nothing and
# takes seconds; `pip install .` without it configures and builds build/pip-cmake itself.
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from cubex import _cubex

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(_cubex.__file__).resolve().parents[2]  # BUILD/python/cubex/_cubex*.so


@pytest.mark.skipif(
    not (BUILD / "CMakeCache.txt").exists(), reason="the module does not come from a CMake build folder"
)
def test_pip_install_into_a_fresh_venv_counts_soma_outside_the_checkout(tmp_path):
    venv = tmp_path / "venv"
    # --system-site-packages: Debian's setuptools, pybind11 and numpy, offline
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = dict(os.environ, CUBEX_CMAKE_BUILD_DIR=str(BUILD), PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)  # the installed module, not the build folder's
    r = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-build-isolation", "--no-index", str(ROOT)],
        env=env, capture_output=True, text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    work = tmp_path / "elsewhere"
    (work / "puzzles" / "voxel").mkdir(parents=True)
    shutil.copy(ROOT / "puzzles" / "voxel" / "soma.json", work / "puzzles" / "voxel")
    one_liner = "import cubex; print(cubex.load('puzzles/voxel/soma.json').count())"
    r = subprocess.run([str(python), "-c", one_liner], cwd=work, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "Counts(total=11520, unique=240, symmetric=0, group_order=48, complete=True)\n"
    where = subprocess.run(
        [str(python), "-c", "import cubex, cubex._cubex; print(cubex.__file__); print(cubex._cubex.__file__)"],
        cwd=work, env=env, capture_output=True, text=True, check=True,
    ).stdout.split()
    assert all(pathlib.Path(w).is_relative_to(venv) for w in where), where
    site = pathlib.Path(where[0]).parent
    assert (site / "__init__.pyi").exists() and (site / "py.typed").exists()
