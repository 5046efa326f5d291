# Type stubs of the cubex package (python/cubex/__init__.py and the extension cubex._cubex).
import os
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

PathLike = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]
Symmetry = str  # 'auto', 'rotations' or 'none'
ProgressCallback = Callable[[Dict[str, Any]], Optional[bool]]
SolutionLike = Union["Solution", Dict[str, Any], Sequence[int], npt.NDArray[np.uint32]]

class InputError(ValueError):
    """A puzzle that cannot be read; the place in file, line, column, json_path."""

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    json_path: Optional[str]
    message: str
    def __init__(
        self,
        text: str,
        file: Optional[str] = ...,
        line: Optional[int] = ...,
        column: Optional[int] = ...,
        json_path: Optional[str] = ...,
        message: Optional[str] = ...,
    ) -> None: ...

class _CountFields(NamedTuple):
    total: int
    unique: int
    symmetric: int
    group_order: int
    complete: bool = ...

class Counts(_CountFields):
    """The counts of Puzzle.count(): total, unique, symmetric, group_order, complete."""

    nodes: int
    seconds: float
    threads: int
    method: str
    def __new__(
        cls,
        total: int,
        unique: int,
        symmetric: int,
        group_order: int,
        complete: bool = ...,
        *,
        nodes: int = ...,
        seconds: float = ...,
        threads: int = ...,
        method: str = ...,
    ) -> Counts: ...

class Solution(Dict[str, Any]):
    """One solution: the keys of `cubex solve --json` ('placements' or 'options', 'index',
    'class', 'orbit_size', 'element', 'unused' where the puzzle has spare pieces) and
    'option_ids'."""

    def to_json(self, indent: Optional[int] = ...) -> str:
        """The solution as JSON text, as `cubex solve --json` writes it."""

class SolutionIterator(Iterator[Solution]):
    def __iter__(self) -> SolutionIterator: ...
    def __next__(self) -> Solution: ...

class Puzzle:
    """A puzzle compiled to an exact-cover matrix."""

    @property
    def kind(self) -> str:
        """'voxel', 'happy-cube' or 'exact-cover'."""
    @property
    def name(self) -> str:
        """The puzzle's name."""
    @property
    def num_items(self) -> int:
        """The number of items of the exact-cover matrix."""
    @property
    def num_options(self) -> int:
        """The number of options of the exact-cover matrix."""
    @property
    def items(self) -> List[str]:
        """The item names, in order."""
    @property
    def notes(self) -> List[str]:
        """What the reader noticed ('pieces a and b are congruent: ...')."""
    @property
    def infeasible(self) -> Optional[str]:
        """Why the puzzle has no solution, found without searching; None when only a search can tell."""
    def option(self, index: int) -> List[str]:
        """The item names of option `index`."""
    def symmetry_order(self, symmetry: Symmetry = ...) -> int:
        """The order of the puzzle's symmetry group."""
    def count(
        self,
        symmetry: Symmetry = ...,
        threads: int = ...,
        progress: Optional[ProgressCallback] = ...,
        limit: int = ...,
        **options: Union[str, int, float, bool, Tuple[int, int], os.PathLike[str]],
    ) -> Counts:
        """Counts the solutions, as `cubex solve` does (symmetry 'auto' by default); the other
        options of `cubex solve` as keywords (count_by, backend, checkpoint, checkpoint_every,
        resume, shard)."""
    def solutions(
        self,
        symmetry: Symmetry = ...,
        limit: int = ...,
        threads: int = ...,
        expand: bool = ...,
        progress: Optional[ProgressCallback] = ...,
        **options: Union[str, int, float, bool, Tuple[int, int], os.PathLike[str]],
    ) -> SolutionIterator:
        """A generator of solutions (one per class with symmetry 'auto', the default)."""
    def solution_text(self, solution: SolutionLike) -> str:
        """The solution drawn as text, as `cubex solve` prints it."""
    def render_svg(self, solution: SolutionLike, caption: Optional[str] = ...) -> str:
        """The solution as SVG text, as `cubex render --svg` draws it."""
    def verify(self, solution: SolutionLike) -> str:
        """'' when the options form a solution, else what is wrong."""

def load(
    path: PathLike, *, problem: Optional[Union[str, int]] = ..., max_nodes: Optional[int] = ...
) -> Puzzle:
    """Reads a puzzle file as `cubex solve` does."""

def loads(
    text: Union[str, bytes],
    format: str,
    *,
    name: Optional[str] = ...,
    problem: Optional[Union[str, int]] = ...,
) -> Puzzle:
    """Reads a puzzle from the contents of a file of `format` ('json', 'txt', 'hcq', 'dlx', 'xc', 'xmpuzzle')."""

def from_dict(obj: Dict[str, Any], *, name: Optional[str] = ...) -> Puzzle:
    """A puzzle from the dict of a JSON puzzle file (voxel or happy-cube)."""

def matrix(
    items: Sequence[Union[str, Tuple[str, int, int]]],
    options: Sequence[Sequence[Union[str, int]]],
    secondary: Sequence[str] = ...,
    name: str = ...,
) -> Puzzle:
    """An exact-cover matrix from lists."""
