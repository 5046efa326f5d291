"""cubex: an exact-cover engine for cube puzzles.

Read a puzzle (``load``, ``loads``, ``from_dict``) or build an exact-cover matrix (``matrix``),
then count its solutions (``Puzzle.count``) or list them (``Puzzle.solutions``). docs/python.md
shows a session; ``help(cubex.Puzzle)`` lists every method.

>>> import cubex
>>> cubex.load("puzzles/voxel/soma.json").count()
Counts(total=11520, unique=240, symmetric=0, group_order=48, complete=True)
"""

from __future__ import annotations

import errno
import json
import os
import stat
from typing import Any, Dict, NamedTuple, Optional, Union

__all__ = [
    "Counts",
    "InputError",
    "Puzzle",
    "Solution",
    "from_dict",
    "load",
    "loads",
    "matrix",
    "__version__",
]


class InputError(ValueError):
    """A puzzle that cannot be read: a malformed file, text or dict.

    ``str(error)`` is the message ``cubex solve`` prints (``FILE:LINE:COL: ...`` or
    ``FILE: json.path: ...``). The place is also in the attributes: ``file`` (the file, or
    ``"<string>"``/``"<dict>"`` for ``loads``/``from_dict``), ``line`` and ``column`` (1-based;
    None where the place is a JSON path or the whole file), ``json_path`` (such as
    ``"pieces[3].cells[2]"``; None for text formats) and ``message`` (what was expected and
    found, without the place).
    """

    def __init__(
        self,
        text: str,
        file: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        json_path: Optional[str] = None,
        message: Optional[str] = None,
    ) -> None:
        """`text`: the whole message; the other arguments: the place (see the class)."""
        super().__init__(text)
        self.file = file
        self.line = line
        self.column = column
        self.json_path = json_path
        self.message = text if message is None else message


class _CountFields(NamedTuple):
    total: int
    unique: int
    symmetric: int
    group_order: int
    complete: bool = True


class Counts(_CountFields):
    """The result of ``Puzzle.count()``: a named tuple of the counts.

    Fields: ``total`` (every solution), ``unique`` (the classes up to the symmetry group;
    ``total`` when the group is the identity alone), ``symmetric`` (the classes that a symmetry
    moving items maps onto themselves), ``group_order`` (the order of the group counted with),
    ``complete`` (False when the count was stopped early: the counts are then those found so
    far). ``_asdict()`` gives them as a dict; two Counts are equal when these five fields are.

    How it was counted is in attributes outside the tuple (not compared): ``nodes`` (nodes of
    the search tree, or sub-problems counted by memo), ``seconds``, ``threads`` and ``method``
    (``"memo"``, ``"search"``, or ``"checks"``: the puzzle has no solution and needed no
    search).
    """
    # (A tuple's subclass cannot have slots: these four live in the instance's __dict__.)
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
        complete: bool = True,
        *,
        nodes: int = 0,
        seconds: float = 0.0,
        threads: int = 0,
        method: str = "search",
    ) -> "Counts":
        self = super().__new__(cls, total, unique, symmetric, group_order, complete)
        self.nodes = nodes
        self.seconds = seconds
        self.threads = threads
        self.method = method
        return self


class Solution(dict):
    """One solution from ``Puzzle.solutions()``: a dict.

    Its keys are those of a solution in ``cubex solve --json`` (``"placements"`` for voxel
    puzzles and Happy Cubes, ``"options"`` for matrices; ``"index"``, ``"class"``,
    ``"orbit_size"`` and ``"element"``; ``"unused"``, the names of the spare pieces or plates
    it leaves over, where the puzzle has spares) plus ``"option_ids"``, the chosen options as a
    numpy ``uint32`` array.
    """

    def to_json(self, indent: Optional[int] = None) -> str:
        """The solution as JSON text, as ``cubex solve --json`` writes it in ``"solutions"``
        (``option_ids`` left out: they index this build's matrix)."""
        return json.dumps({k: v for k, v in self.items() if k != "option_ids"}, indent=indent)


from . import _cubex  # noqa: E402  (the classes above are what the extension hands back)
from ._cubex import Puzzle, matrix  # noqa: E402

__version__: str = _cubex.__version__

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def _path(path: Any) -> str:
    """`path` as a str: a str, bytes or os.PathLike; TypeError or ValueError naming it."""
    try:
        p = os.fspath(path)
    except TypeError:
        raise TypeError(
            f"path: expected a str, bytes or os.PathLike, found {type(path).__name__}"
        ) from None
    if isinstance(p, bytes):
        p = os.fsdecode(p)
    if "\0" in p:
        raise ValueError(f"path: expected a file name without NUL characters, found {p!r}")
    return p


def load(
    path: PathLike,
    *,
    problem: Optional[Union[str, int]] = None,
    max_nodes: Optional[int] = None,
) -> Puzzle:
    """Reads a puzzle file as ``cubex solve`` does, choosing the format by its extension
    (.json, .txt, .hcq, .dlx, .xc, and .xmpuzzle where BurrTools support is built in).

    ``path``: a str, bytes or ``os.PathLike`` (``pathlib.Path``). ``problem``: for a BurrTools
    file holding several problems, the one to read, by name or 1-based number (default the
    first), as ``cubex solve --problem``. ``max_nodes``: refuse a puzzle whose exact-cover
    matrix has more nodes than this (default 20,000,000; up to 2,000,000,000), as
    ``cubex solve --max-nodes``.

    Raises FileNotFoundError when there is no such file, IsADirectoryError for a folder,
    PermissionError for a file this process may not read,
    ``cubex.InputError`` (a ValueError) naming the file and the line or JSON path for a
    malformed one, and ValueError for an extension that no format has.
    """
    p = _path(path)
    st = os.stat(p)  # FileNotFoundError, PermissionError (a folder on the way), ...
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), p)
    if not os.access(p, os.R_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), p)
    return _cubex._load(p, _problem(problem), max_nodes)


def loads(
    text: Union[str, bytes],
    format: str,
    *,
    name: Optional[str] = None,
    problem: Optional[Union[str, int]] = None,
) -> Puzzle:
    """Reads a puzzle from the contents of a file: ``text`` as it would be in a file of
    ``format`` (``"json"``, ``"txt"``, ``"hcq"``, ``"dlx"``, ``"xc"``, or ``"xmpuzzle"``; a
    leading dot is allowed). ``text`` is a str, or bytes (a gzip-compressed ``.xmpuzzle``).

    ``name`` stands for the file in error messages and names the puzzle where the text does
    not (default ``"<string>"``). ``problem`` as for ``load``. Raises ``cubex.InputError``
    (a ValueError) for malformed text, ValueError for an unknown format.
    """
    if not isinstance(format, str):
        raise TypeError(f"format: expected a str such as 'json', found {type(format).__name__}")
    if isinstance(text, str):
        data = text.encode("utf-8", "surrogateescape")
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise TypeError(f"text: expected a str or bytes, found {type(text).__name__}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name: expected a str, found {type(name).__name__}")
    return _cubex._loads(data, format, "<string>" if name is None else name, _problem(problem))


def from_dict(obj: Dict[str, Any], *, name: Optional[str] = None) -> Puzzle:
    """A puzzle from a dict in the JSON form of a puzzle file: a voxel puzzle (``"kind":
    "voxel"`` or no kind) or a Happy Cube (``"kind": "happy-cube"``), exactly as ``json.load``
    would give it from a ``.json`` file.

    ``name`` stands for the file in error messages (default ``"<dict>"``). Raises
    ``cubex.InputError`` naming the JSON path of a mistake, TypeError for a value that JSON
    cannot hold.
    """
    if not isinstance(obj, dict):
        raise TypeError(f"obj: expected a dict (a JSON object), found {type(obj).__name__}")
    try:
        text = json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise TypeError(f"obj: expected values that JSON can hold: {e}") from None
    return loads(text, "json", name="<dict>" if name is None else name)


def _problem(problem: Optional[Union[str, int]]) -> str:
    """`problem` of load/loads as the text of `cubex solve --problem` ("" for the first)."""
    if problem is None:
        return ""
    if isinstance(problem, bool) or not isinstance(problem, (str, int)):
        raise TypeError(
            f"problem: expected a name (str) or a 1-based number (int), found {problem!r}"
        )
    if isinstance(problem, int) and problem < 1:
        raise ValueError(f"problem: expected a number from 1, found {problem}")
    return str(problem)
