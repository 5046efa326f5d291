# The JSON written by `cubex solve --json/--jsonl` and `cubex verify --json` validates against
# the schemas in docs/schema/ (issue 19). The validator below covers the part of JSON Schema
# (2020-12) that those files use; it is tested on documents that must fail, too.
import json
import re
import subprocess

import pytest

NUMBER_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def is_type(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, NUMBER_TYPES[name])


SUPPORTED = {"$schema", "$id", "title", "description", "$defs", "$ref", "type", "properties",
             "required", "items", "minItems", "maxItems", "enum", "const", "minimum", "maximum",
             "anyOf", "allOf", "oneOf", "pattern", "additionalProperties"}


def errors(value, schema, root, where="$"):
    """The list of reasons `value` does not match `schema` (empty when it does)."""
    unknown = set(schema) - SUPPORTED
    assert not unknown, f"the test's validator does not know {unknown}"
    out = []
    if "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/$defs/"), ref
        out += errors(value, root["$defs"][ref[len("#/$defs/"):]], root, where)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(is_type(value, t) for t in types):
            return out + [f"{where}: expected {types}, found {json.dumps(value)[:80]}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{where}: expected {schema['const']!r}, found {value!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: expected one of {schema['enum']}, found {value!r}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        out.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if "minimum" in schema and isinstance(value, (int, float)) and value < schema["minimum"]:
        out.append(f"{where}: below {schema['minimum']}")
    if "maximum" in schema and isinstance(value, (int, float)) and value > schema["maximum"]:
        out.append(f"{where}: above {schema['maximum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{where}: missing key {key!r}")
        props = schema.get("properties", {})
        for key, sub in props.items():
            if key in value:
                out += errors(value[key], sub, root, f"{where}.{key}")
        if schema.get("additionalProperties") is False:
            out += [f"{where}: unexpected key {k!r}" for k in value if k not in props]
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            out.append(f"{where}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            out.append(f"{where}: more than {schema['maxItems']} items")
        if "items" in schema:
            for k, v in enumerate(value):
                out += errors(v, schema["items"], root, f"{where}[{k}]")
    for sub in schema.get("allOf", []):
        out += errors(value, sub, root, where)
    if "anyOf" in schema:
        tries = [errors(value, sub, root, where) for sub in schema["anyOf"]]
        if all(tries):
            out.append(f"{where}: matches none of anyOf: " + "; ".join(t[0] for t in tries))
    if "oneOf" in schema:
        tries = [errors(value, sub, root, where) for sub in schema["oneOf"]]
        if sum(not t for t in tries) != 1:
            out.append(f"{where}: matches {sum(not t for t in tries)} of oneOf, not one")
    return out


@pytest.fixture
def schema(root):
    def load(name):
        return json.loads((root / "docs" / "schema" / name).read_text())

    return load


def run(cubex_exe, *args):
    r = subprocess.run([cubex_exe, *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


CASES = [
    ("voxel/soma.json", ["--all", "--limit", "3"]),
    ("voxel/soma.json", ["--count", "--threads", "2"]),
    ("voxel/l-tricubes.json", ["--first", "--expand"]),
    ("voxel/wooden-cube-6.txt", ["--first", "--symmetry", "none"]),
    ("happycube/HC_BQ_01.hcq", ["--all"]),
    ("happycube/rubens_box_2x1x1.json", ["--first"]),
    ("happycube/rubens_box_2x1x1.json", ["--count"]),  # counted by memo
    ("dlx/l9.dlx", ["--all", "--limit", "5", "--threads", "1"]),
    ("dlx/knuth-example.dlx", ["--all"]),
]


@pytest.mark.parametrize("rel,flags", CASES, ids=[f"{c[0]} {' '.join(c[1])}" for c in CASES])
def test_solve_outputs_validate(cubex_exe, puzzle_file, schema, rel, flags):
    doc_schema = schema("cubex-solve-1.json")
    line_schema = schema("cubex-solve-lines-1.json")
    doc = json.loads(run(cubex_exe, "solve", puzzle_file(rel), "-q", *flags, "--json", "-"))
    assert errors(doc, doc_schema, doc_schema) == []
    lines = [json.loads(x) for x in run(cubex_exe, "solve", puzzle_file(rel), "-q", *flags,
                                         "--jsonl", "-").splitlines()]
    assert [x["type"] for x in lines] == ["header"] + ["solution"] * len(doc["solutions"]) + ["end"]
    for line in lines:
        assert errors(line, line_schema, line_schema) == []
    # the two layouts carry the same content
    assert lines[-1]["counts"] == doc["counts"]
    def content(s):
        return s.get("placements", s.get("options"))

    assert [content(x) for x in lines[1:-1]] == [content(s) for s in doc["solutions"]]


def test_verify_output_validates(cubex_exe, puzzle_file, schema, tmp_path):
    out = tmp_path / "s.json"
    run(cubex_exe, "solve", puzzle_file("dlx/l9.dlx"), "--all", "-q", "--limit", "3", "--json", str(out))
    doc = json.loads(run(cubex_exe, "verify", puzzle_file("dlx/l9.dlx"), str(out), "--json", "-"))
    s = schema("cubex-verify-1.json")
    assert errors(doc, s, s) == []
    assert doc["valid"] == 3


def test_validator_rejects_what_the_schema_forbids(cubex_exe, puzzle_file, schema):
    s = schema("cubex-solve-1.json")
    doc = json.loads(run(cubex_exe, "solve", puzzle_file("voxel/soma.json"), "--first", "-q",
                         "--json", "-"))
    assert errors(doc, s, s) == []
    broken = json.loads(json.dumps(doc))
    del broken["counts"]["total"]
    assert any("missing key 'total'" in e for e in errors(broken, s, s))
    # counts past 2^53 are strings of decimal digits (issue 37), nothing else
    big = json.loads(json.dumps(doc))
    big["counts"]["total"] = "2444888770250892795802079170816"
    assert errors(big, s, s) == []
    for bad in ("12a", 2**60, -1):
        big["counts"]["total"] = bad
        assert any("oneOf" in e for e in errors(big, s, s)), bad
    broken = json.loads(json.dumps(doc))
    broken["solutions"][0]["orbit_size"] = "48"
    assert errors(broken, s, s)
    broken = json.loads(json.dumps(doc))
    broken["schema"] = "cubex-solve/2"
    assert errors(broken, s, s)
    broken = json.loads(json.dumps(doc))
    broken["solutions"][0]["placements"][0]["cells"] = [[0, 0]]
    assert errors(broken, s, s)


def test_schema_files_are_json_with_their_names(root):
    names = sorted(p.name for p in (root / "docs" / "schema").glob("*.json"))
    assert names == ["cubex-solve-1.json", "cubex-solve-lines-1.json", "cubex-verify-1.json"]
    for n in names:
        assert json.loads((root / "docs" / "schema" / n).read_text())["$id"].endswith(n)


def test_group_elements_map_the_first_solution_onto_the_expanded_ones(cubex_exe, puzzle_file):
    # Each solution of `--expand` names the group element that maps its class's first solution
    # onto it. Applying that element by hand (its matrix about the container's centre, and its
    # piece permutation) must give the solution's cells, piece by piece.
    lines = [json.loads(x) for x in run(cubex_exe, "solve", puzzle_file("voxel/soma.json"),
                                        "--first", "--expand", "-q", "--jsonl", "-").splitlines()]
    group = lines[0]["symmetry"]["group"]
    sols = lines[1:-1]
    assert len(sols) == 48 and sols[0]["element"] == 0
    first = {p["piece"]: p["cells"] for p in sols[0]["placements"]}
    centre = [1, 1, 1]  # of the 3x3x3 box: cells 0..2
    seen = set()
    for s in sols:
        e = group[s["element"]]
        m, to = e["matrix"], dict(e["pieces"])
        image = {}
        for piece, cells in first.items():
            moved = []
            for c in cells:
                d = [c[k] - centre[k] for k in range(3)]
                moved.append([sum(m[r][k] * d[k] for k in range(3)) + centre[r] for r in range(3)])
            image[to[piece]] = sorted(moved)
        assert image == {p["piece"]: sorted(p["cells"]) for p in s["placements"]}
        seen.add(json.dumps(image, sort_keys=True))
    assert len(seen) == 48
    # the reflections swap the mirror twins A and B (Soma), the rotations fix every piece
    for e in group:
        assert (dict(e["pieces"])["A"] == "B") == e["reflection"]
