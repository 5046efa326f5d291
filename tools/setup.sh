#!/usr/bin/env bash
# cubex set-up on Debian: installs the packages that are missing, builds Release, and solves the
# default puzzle. Safe to run again: it installs nothing that is already there.
#
#   tools/setup.sh               install what is missing, build (with BurrTools .xmpuzzle support:
#                                zlib and pugixml are installed too), solve the default puzzle
#   tools/setup.sh --deps-only   only install what is missing
#   tools/setup.sh --baselines   also install CBC and CaDiCaL and build with -DCUBEX_BASELINES=ON
#   tools/setup.sh --test        also install what the tests use: chromium (the HTML viewer test)
#   tools/setup.sh --fuzz        also install clang and libFuzzer (for tools/fuzz.sh)
#   tools/setup.sh --burrtools   also install admesh (the STL checks); zlib and pugixml, which
#                                BurrTools .xmpuzzle files need (-DCUBEX_BURRTOOLS=ON), are
#                                installed without it
#   tools/setup.sh --python      also install pybind11, setuptools, venv, pytest and numpy and
#                                build the Python module (-DCUBEX_PYTHON=ON; `pip install
#                                --no-build-isolation .` in a venv; docs/python.md)
#   tools/setup.sh --mpi         also install Open MPI and build the MPI mode, `solve --mpi`
#                                under mpirun (-DCUBEX_MPI=ON; docs/parallel.md)
set -euo pipefail
cd "$(dirname "$0")/.."

deps_only=0
baselines=OFF
python=OFF
mpi=OFF
pkgs=(cmake g++ make libboost-program-options-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev
      zlib1g-dev libpugixml-dev)
for arg in "$@"; do
  case "$arg" in
    --deps-only) deps_only=1 ;;
    --baselines) pkgs+=(coinor-libcbc-dev libcadical-dev pkg-config); baselines=ON ;;
    --test) pkgs+=(chromium python3) ;;
    --fuzz) pkgs+=(clang libclang-rt-dev) ;;
    --burrtools) pkgs+=(admesh) ;;
    --python) pkgs+=(python3-dev python3-pybind11 pybind11-dev python3-setuptools python3-venv
                     python3-pytest python3-numpy); python=ON ;;
    --mpi) pkgs+=(libopenmpi-dev openmpi-bin); mpi=ON ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup.sh: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
((deps_only)) && exit 0

py=()
# Debian's interpreter, the one its python3-* packages serve (not a python3 earlier on PATH).
if [ "$python" = ON ] && [ -x /usr/bin/python3 ]; then py=(-DPython_EXECUTABLE=/usr/bin/python3); fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUBEX_BASELINES=$baselines -DCUBEX_BURRTOOLS=ON \
  -DCUBEX_PYTHON=$python -DCUBEX_MPI=$mpi "${py[@]}" >/dev/null
cmake --build build -j "$(nproc)"
echo
./build/cubex solve puzzles/voxel/soma.json
