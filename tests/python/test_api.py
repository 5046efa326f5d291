# The Pythonic surface of the `cubex` package (issue 38): path-like arguments, the errors
# (FileNotFoundError, cubex.InputError with its place, TypeError/ValueError naming the argument
# and the value), repr, Counts as a named tuple, one default symmetry with the CLI, loads and
# from_dict, notes and infeasible, Solution.to_json and render_svg. Counts are published
# figures (KNOWN_COUNTS.md) or the CLI's own output for the same file.
import json
import pathlib
import subprocess
import tempfile

import pytest

import cubex
from cubex import _cubex


def cli_json(cubex_exe, *args):
    """`cubex solve ... --json OUT` parsed: the CLI's answer to compare with."""
    with tempfile.TemporaryDirectory() as d:
        out = pathlib.Path(d) / "out.json"
        subprocess.run([cubex_exe, "solve", *args, "--json", str(out)], capture_output=True, check=True)
        return json.loads(out.read_text())


# ---- paths and errors -----------------------------------------------------------------------


def test_load_takes_path_like_and_bytes(puzzle_file):
    path = pathlib.Path(puzzle_file("voxel/soma.json"))
    for p in (path, str(path), bytes(path)):
        assert cubex.load(p).num_options == 688


def test_missing_file_raises_file_not_found(tmp_path):
    missing = tmp_path / "nothing.json"
    with pytest.raises(FileNotFoundError) as e:
        cubex.load(missing)
    assert e.value.filename == str(missing)
    with pytest.raises(IsADirectoryError):
        cubex.load(tmp_path)


def test_bad_paths_name_the_argument():
    with pytest.raises(ValueError, match=r"path: .*NUL.*'a\\x00b\.json'"):
        cubex.load("a\0b.json")
    with pytest.raises(TypeError, match="path: expected a str, bytes or os.PathLike, found int"):
        cubex.load(3)


def test_input_error_names_file_line_and_json_path(tmp_path):
    bad = tmp_path / "bad.dlx"
    bad.write_text("A B\nA C\n")
    with pytest.raises(cubex.InputError) as e:
        cubex.load(bad)
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.file, err.line, err.column, err.json_path) == (str(bad), 2, 3, None)
    assert str(err).startswith(f"{bad}:2:3: ") and err.message in str(err)

    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"container": {"box": [2, 2, 2]}, "pieces": [{"cells": "x"}]}')
    with pytest.raises(cubex.InputError) as e:
        cubex.load(bad_json)
    assert e.value.file == str(bad_json) and e.value.line is None
    assert e.value.json_path.startswith("pieces[0]"), e.value.json_path

    with pytest.raises(cubex.InputError) as e:
        cubex.from_dict({"container": {"box": [2, 2, 2]}, "pieces": [{"cells": "x"}]})
    assert e.value.file == "<dict>" and e.value.json_path.startswith("pieces[0]")


def test_unknown_extension_is_a_value_error(tmp_path):
    f = tmp_path / "soma.xyz"
    f.write_text("x")
    with pytest.raises(ValueError, match="expected a puzzle file ending in"):
        cubex.load(f)


def test_matrix_errors_name_the_option_and_the_value():
    cases = [
        ([[1.5]], TypeError, r"options\[0\]\[0\]: expected an item name \(str\) or index \(int\), found 1.5"),
        ([[None]], TypeError, r"options\[0\]\[0\]: .*found None"),
        ([[2**70]], ValueError, r"options\[0\]\[0\]: expected an item index from 0 to 0, found 1180591620717411303424"),
        ([[-1]], ValueError, r"options\[0\]\[0\]: expected an item index from 0 to 0, found -1"),
        ([["Z"]], ValueError, r"options\[0\]\[0\]: no item named 'Z'"),
        ([["A"], 7], TypeError, r"options\[1\]: expected a list, found 7"),
        ("A", TypeError, r"options: expected a list"),
    ]
    for options, exc, pattern in cases:
        with pytest.raises(exc, match=pattern):
            cubex.matrix(["A"], options)
    with pytest.raises(TypeError, match=r"items\[0\]: expected an item name"):
        cubex.matrix([1], [])
    with pytest.raises(TypeError, match=r"items\[0\]\[1\]: expected an int, found 'x'"):
        cubex.matrix([("A", "x", 2)], [])


def test_argument_errors_name_the_argument_and_the_value(puzzle_file):
    p = cubex.load(puzzle_file("dlx/knuth-example.dlx"))
    with pytest.raises(ValueError, match="symmetry: expected 'none', 'rotations' or 'auto', found 'sideways'"):
        p.count(symmetry="sideways")
    with pytest.raises(TypeError, match="symmetry: expected a str, found 3"):
        p.solutions(symmetry=3)
    with pytest.raises(ValueError, match="threads: expected an int from 0 to 4096, found -1"):
        p.count(threads=-1)
    with pytest.raises(TypeError, match="limit: expected an int, found 'x'"):
        p.solutions(limit="x")
    with pytest.raises(TypeError, match="progress: expected a callable or None, found 5"):
        p.count(progress=5)
    with pytest.raises(ValueError, match=r"index: expected an option number from 0 to 5, found 6"):
        p.option(6)
    with pytest.raises(ValueError, match=r"solution\[0\]: expected an option number from 0 to 5, found 9"):
        p.verify([9])


# ---- what a puzzle says ---------------------------------------------------------------------


def test_repr_names_the_puzzle(puzzle_file):
    assert repr(cubex.load(puzzle_file("voxel/soma.json"))) == (
        "<cubex.Puzzle 'Soma cube': voxel, 34 items, 688 options>"
    )
    assert repr(cubex.matrix(["A"], [["A"]])) == "<cubex.Puzzle 'matrix': exact-cover, 1 items, 1 options>"


def test_notes_and_infeasible_are_the_clis(puzzle_file, cubex_exe):
    box = cubex.load(puzzle_file("voxel/congruent-box.json"))
    assert box.notes == [
        "pieces a, b, c and d are congruent: counted as identical",
        "pieces e and f are congruent: counted as identical",
    ]
    assert box.infeasible is None
    row4 = puzzle_file("happycube/row4_three_sets.json")
    p = cubex.load(row4)
    assert p.infeasible.startswith("the bumps of the plates cannot fill the edges and corners")
    assert p.infeasible == cli_json(cubex_exe, row4)["infeasible"]["reason"]
    c = p.count()
    assert (c.total, c.unique, c.complete, c.method) == (0, 0, True, "checks")
    assert list(p.solutions()) == []


# ---- counts ---------------------------------------------------------------------------------


def test_counts_is_a_named_tuple_with_equality(puzzle_file):
    p = cubex.load(puzzle_file("voxel/soma.json"))
    c = p.count(threads=2)
    assert c == (11520, 240, 0, 48, True)
    assert c._asdict() == {"total": 11520, "unique": 240, "symmetric": 0, "group_order": 48, "complete": True}
    assert c._fields == ("total", "unique", "symmetric", "group_order", "complete")
    assert c == p.count(threads=1)  # the statistics (nodes, seconds, threads) are not compared
    assert c.nodes > 0 and c.seconds >= 0 and c.method in ("search", "memo")
    assert repr(c) == "Counts(total=11520, unique=240, symmetric=0, group_order=48, complete=True)"
    total, unique, *_ = c
    assert (total, unique) == (11520, 240)


def test_count_and_solutions_default_to_the_clis_symmetry(puzzle_file, cubex_exe):
    path = puzzle_file("voxel/soma.json")
    cli = cli_json(cubex_exe, path)["counts"]
    p = cubex.load(path)
    c = p.count()
    assert (c.total, c.unique, c.group_order) == (cli["total"], cli["unique"], cli["group_order"]) == (11520, 240, 48)
    classes = list(p.solutions())  # one per class, as `cubex solve --all`
    assert len(classes) == 240 and sum(s["orbit_size"] for s in classes) == 11520


# ---- other ways in ----------------------------------------------------------------------------


def test_from_dict_counts_soma(puzzle_file):
    with open(puzzle_file("voxel/soma.json")) as f:
        doc = json.load(f)
    c = cubex.from_dict(doc).count()
    assert (c.total, c.unique) == (11520, 240)  # Conway & Guy


def test_from_dict_reads_a_happy_cube(puzzle_file):
    with open(puzzle_file("happycube/confusius.json")) as f:
        doc = json.load(f)
    p = cubex.from_dict(doc)
    assert p.kind == "happy-cube"
    assert p.count() == cubex.load(puzzle_file("happycube/confusius.json")).count()
    with pytest.raises(TypeError, match="obj: expected a dict"):
        cubex.from_dict("{}")
    with pytest.raises(TypeError, match="obj: expected values that JSON can hold"):
        cubex.from_dict({"x": object()})


@pytest.mark.parametrize(
    "rel, fmt",
    [
        ("voxel/soma.json", "json"),
        ("voxel/wooden-cube-6.txt", "txt"),
        ("happycube/HC_BQ_01.hcq", ".hcq"),
        ("dlx/soma.dlx", "dlx"),
        ("dlx/knuth-colours.xc", "XC"),
    ],
)
def test_loads_reads_every_text_format_as_load_does(puzzle_file, rel, fmt):
    path = puzzle_file(rel)
    with open(path, "rb") as f:
        data = f.read()
    a, b = cubex.load(path), cubex.loads(data.decode(), fmt)
    assert (a.kind, a.num_items, a.num_options) == (b.kind, b.num_items, b.num_options)
    assert a.count(threads=1) == b.count(threads=1)


def test_loads_errors(tmp_path):
    with pytest.raises(cubex.InputError) as e:
        cubex.loads("A B\nA C\n", "dlx", name="mine.dlx")
    assert (e.value.file, e.value.line, e.value.column) == ("mine.dlx", 2, 3)
    with pytest.raises(cubex.InputError, match=r"<string>:1:3: expected text, found a NUL byte"):
        cubex.loads("A \0B\n", "dlx")
    with pytest.raises(ValueError, match="format: expected 'json', 'txt', 'hcq', 'dlx', 'xc' or 'xmpuzzle', found 'png'"):
        cubex.loads("x", "png")
    with pytest.raises(ValueError, match="problem: .*format 'dlx' holds one"):
        cubex.loads("A\nA\n", "dlx", problem=2)


@pytest.mark.skipif(not _cubex.burrtools, reason="built without BurrTools support")
def test_loads_reads_a_burrtools_file(puzzle_file, cubex_exe, tmp_path):
    xm = tmp_path / "soma.xmpuzzle"
    subprocess.run([cubex_exe, "convert", puzzle_file("voxel/soma.json"), str(xm)], check=True,
                   capture_output=True)
    assert cubex.load(xm).count() == (11520, 240, 0, 48, True)
    assert cubex.loads(xm.read_bytes(), "xmpuzzle").count() == (11520, 240, 0, 48, True)
    box = tmp_path / "box.xmpuzzle"
    subprocess.run([cubex_exe, "convert", puzzle_file("voxel/congruent-box.json"), str(box)],
                   check=True, capture_output=True)
    from_text = cubex.loads(box.read_bytes(), ".xmpuzzle")
    assert from_text.notes == cubex.load(box).notes and len(from_text.notes) == 2
    with pytest.raises(cubex.InputError, match="^mine.xmpuzzle: "):
        cubex.loads(b"\x1f\x8b garbage", "xmpuzzle", name="mine.xmpuzzle")


# ---- solutions out ----------------------------------------------------------------------------


def test_solution_to_json_is_the_clis(puzzle_file, cubex_exe):
    path = puzzle_file("voxel/soma.json")
    s = next(cubex.load(path).solutions())
    assert isinstance(s, cubex.Solution)
    cli = cli_json(cubex_exe, path, "--first")["solutions"][0]
    assert json.loads(s.to_json()) == cli
    assert "option_ids" not in json.loads(s.to_json(indent=2))


def test_solutions_list_the_spare_pieces_as_the_cli(cubex_exe, tmp_path):
    # A 2x1x1 box from a domino [0, 1] and monominoes [0, 2]: the domino alone leaves both
    # monominoes over, the two monominoes leave the domino (as Happy Cube lists spare plates).
    doc = {
        "container": {"box": [2, 1, 1]},
        "pieces": [
            {"name": "d", "cells": [[0, 0, 0], [1, 0, 0]], "count": [0, 1]},
            {"name": "m", "cells": [[0, 0, 0]], "count": [0, 2]},
        ],
    }
    p = cubex.from_dict(doc)
    sols = list(p.solutions(symmetry="none"))
    assert sorted(s["unused"] for s in sols) == [["d"], ["m", "m"]]
    for s in sols:
        used = [pl["piece"] for pl in s["placements"]]
        assert sorted(used + s["unused"]) == ["d", "m", "m"]
    path = tmp_path / "spare.json"
    path.write_text(json.dumps(doc))
    cli = cli_json(cubex_exe, str(path), "--all", "--symmetry", "none")["solutions"]
    assert [json.loads(s.to_json()) for s in sols] == cli
    # No spare pieces, no list.
    assert "unused" not in next(cubex.from_dict({"container": {"box": [2, 1, 1]}, "pieces": [
        {"name": "d", "cells": [[0, 0, 0], [1, 0, 0]]}]}).solutions())


def test_render_svg_draws_as_the_cli_does(puzzle_file, cubex_exe, tmp_path):
    path = puzzle_file("voxel/soma.json")
    p = cubex.load(path)
    s = next(p.solutions())
    out = tmp_path / "first.svg"
    subprocess.run([cubex_exe, "render", path, "--solution", "1", "--svg", str(out)], check=True,
                   capture_output=True)
    caption = "solution 1 up to symmetry (stands for 48 solutions)"
    assert p.render_svg(s, caption=caption) == out.read_text()
    svg = p.render_svg(s)
    assert svg.count('class="piece"') >= 7 and "solution 1 (stands for 48 solutions)" in svg
    # the same picture from the option ids, and from the JSON form of the solution
    assert p.render_svg(s["option_ids"], caption="x") == p.render_svg(json.loads(s.to_json()), caption="x")
    with pytest.raises(ValueError, match="not a solution of this puzzle"):
        p.render_svg(s["option_ids"][:3])
    m = cubex.matrix(["A"], [["A"]])
    with pytest.raises(ValueError, match="exact-cover puzzles have no geometry"):
        m.render_svg([0])


# ---- counting as the CLI counts -----------------------------------------------------------------


def test_happy_cube_counts_by_memo_as_the_cli(puzzle_file, cubex_exe):
    path = puzzle_file("happycube/rubens_box_2x1x1.json")
    p = cubex.load(path)
    c = p.count()
    cli = cli_json(cubex_exe, path)
    assert cli["search"]["backend"] == "memo" and c.method == "memo"
    assert (c.total, c.unique, c.symmetric, c.group_order) == tuple(
        cli["counts"][k] for k in ("total", "unique", "symmetric", "group_order")
    )
    assert c.nodes == cli["stats"]["nodes"]  # the memo's sub-problems
    # an independent path: the classes listed by the search, and their sizes
    classes = list(p.solutions())
    assert len(classes) == c.unique and sum(s["orbit_size"] for s in classes) == c.total


def test_three_sets_l3_counts_are_the_clis(puzzle_file):
    # issue 34: by memo, as `cubex solve` (docs/happycube.md: 39,098,316; 9,774,579 unique;
    # 1,852,759 sub-problems), not by a search of 348 million nodes
    # (on one thread: on several, a few sub-problems are counted twice and the total varies)
    c = cubex.load(puzzle_file("happycube/l3_three_sets.json")).count(threads=1)
    assert (c.total, c.unique, c.symmetric, c.group_order, c.complete) == (39098316, 9774579, 0, 4, True)
    assert (c.method, c.nodes) == ("memo", 1852759)


def test_counts_past_2_to_64_are_exact_python_ints(puzzle_file):
    # issue 37: the domino tilings of 14x14 (OEIS A004003), counted by memo, are over 2^76
    c = cubex.load(puzzle_file("memo/dominoes-14x14.json")).count(symmetry="none")
    assert c.method == "memo" and c.complete
    assert c.total == 112202208776036178000000 and c.total > 2**64
    assert type(c.total) is int


def test_the_clis_other_options_are_keywords(puzzle_file, tmp_path):
    box = cubex.load(puzzle_file("happycube/rubens_box_2x1x1.json"))
    by_memo, by_search = box.count(), box.count(count_by="search", threads=2)
    assert (by_memo.method, by_search.method) == ("memo", "search")
    assert by_memo == by_search  # two independent ways to the same counts
    soma = cubex.load(puzzle_file("voxel/soma.json"))
    assert soma.count(backend="links", symmetry="none").total == 11520
    halves = [soma.count(shard=f"{k}/2") for k in range(2)]
    assert sum(c.total for c in halves) == 11520 and all(c.complete for c in halves)
    ck = tmp_path / "soma.ck"
    assert soma.count(checkpoint=ck, checkpoint_every=1) == (11520, 240, 0, 48, True)
    assert ck.exists()
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        soma.count(colour=True)
    with pytest.raises(ValueError, match="backend: expected --backend auto, links or bitset, found 'fast'"):
        soma.count(backend="fast")
    with pytest.raises(TypeError, match=r"checkpoint_every: expected SECONDS as a str or a number, found \[1\]"):
        soma.count(checkpoint_every=[1])
    with pytest.raises(ValueError, match="max_nodes: expected an int from 1 to"):
        cubex.load(puzzle_file("voxel/soma.json"), max_nodes=0)
    with pytest.raises(cubex.InputError, match="at most 100 nodes"):
        cubex.load(puzzle_file("voxel/soma.json"), max_nodes=100)
    # the limit was that load's alone
    assert cubex.matrix([f"i{k}" for k in range(200)], [[f"i{k}"] for k in range(200)]).count().total == 1
