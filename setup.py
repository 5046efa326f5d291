"""Builds the extension cubex._cubex with CMake for `pip install .` (pyproject.toml).

The CMake project is configured with only what the module needs (no program, tests or
benchmarks; BurrTools support when zlib and pugixml are found) in a build folder of its own,
build/pip-cmake, kept between installs so that a second install compiles only what changed.
Environment:
  CUBEX_CMAKE_BUILD_DIR   an already configured CMake build folder (with -DCUBEX_PYTHON=ON) to
                          build the target cubex_python in, instead of configuring one
  CUBEX_CMAKE_ARGS        more arguments for the CMake configuration (blank-separated)
  CMAKE_BUILD_PARALLEL_LEVEL  jobs for the build (default: the number of cores)
"""

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(cubex VERSION ([0-9.]+)", f.read())
    return m.group(1) if m else "0"


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = os.path.abspath(self.get_ext_fullpath(ext.name))
        build_dir = os.environ.get("CUBEX_CMAKE_BUILD_DIR")
        if build_dir:
            build_dir = os.path.abspath(build_dir)
        else:
            build_dir = os.path.join(ROOT, "build", "pip-cmake")
            args = [
                "cmake", "-S", ROOT, "-B", build_dir,
                "-DCMAKE_BUILD_TYPE=Release",
                "-DCUBEX_PYTHON=ON",
                "-DCUBEX_PROGRAM=OFF",
                "-DCUBEX_TESTS=OFF",
                "-DCUBEX_BENCH=OFF",
                "-DCUBEX_INSTALL=OFF",
                "-DPython_EXECUTABLE=" + sys.executable,
            ]
            try:
                import pybind11  # Debian's python3-pybind11, or the one pip put in the build env

                args.append("-Dpybind11_DIR=" + pybind11.get_cmake_dir())
            except ImportError:
                pass  # find_package(pybind11) looks in the usual places (pybind11-dev)
            args += shlex.split(os.environ.get("CUBEX_CMAKE_ARGS", ""))
            subprocess.check_call(args)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(
            ["cmake", "--build", build_dir, "--target", "cubex_python", "-j", jobs]
        )
        built = glob.glob(os.path.join(build_dir, "python", "cubex", "_cubex*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _cubex*.so in {build_dir}/python/cubex, found {built}")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    version=version(),
    ext_modules=[CMakeExtension("cubex._cubex")],
    cmdclass={"build_ext": CMakeBuild},
)
