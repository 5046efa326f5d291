#!/usr/bin/env python3
"""Parses an SVG written by `cubex render` with the standard XML parser (a syntax error fails the
test) and prints what the tests check, as JSON: for every view (<g class="view" id=...>), its
piece groups in order with the number of shapes in each and the corner counts of the polygons,
the extent (width, height) of its polygons, and the line widths of its cell seams (the view's
stroke-width) and of its piece boundaries (the outline path); and the legend's names."""
import json
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def main(path):
    root = ET.parse(path).getroot()  # raises on malformed XML
    if root.tag != NS + "svg":
        raise SystemExit("root element is %r, not svg" % root.tag)
    views, extents = {}, {}
    for g in root.iter(NS + "g"):
        if g.get("class") != "view":
            continue
        pieces = []
        for p in g.iter(NS + "g"):
            if p.get("class") != "piece":
                continue
            polys = [len(q.get("points").split()) for q in p.iter(NS + "polygon")]
            rects = len(list(p.iter(NS + "rect")))
            pieces.append({"name": p.get("data-piece"), "polygons": polys, "rects": rects})
        xs, ys = [], []
        for q in g.iter(NS + "polygon"):
            for pt in q.get("points").split():
                x, y = pt.split(",")
                xs.append(float(x))
                ys.append(float(y))
        outline = [float(o.get("stroke-width")) for o in g.iter(NS + "path")
                   if o.get("class") == "outline"]
        views[g.get("id")] = pieces
        extents[g.get("id")] = {
            "extent": [max(xs) - min(xs), max(ys) - min(ys)] if xs else [0, 0],
            "seam": float(g.get("stroke-width", "1")),
            "boundary": min(outline) if outline else 0}
    legend = []
    for g in root.iter(NS + "g"):
        if g.get("class") == "legend":
            legend = [t.text for t in g.iter(NS + "text")]
    print(json.dumps({"views": views, "lines": extents, "legend": legend}))


if __name__ == "__main__":
    main(sys.argv[1])
