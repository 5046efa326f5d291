#!/usr/bin/env python3
"""Draws the piece STL files of `cubex render --stl DIR` side by side as an SVG picture.

    tools/stl_preview.py DIR OUT.svg

A preview for the documentation (docs/pictures/soma_stl.svg): the triangles of each NN-*.stl file
in a fixed oblique view, sorted back to front, shaded by their normals. Standard library only.
"""
import glob
import math
import struct
import sys

COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
           "#bfef45", "#9a6324", "#469990"]
AZ, EL = math.radians(35), math.radians(30)


def read_stl(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack("<I", data[80:84])
    for i in range(n):
        v = struct.unpack("<12f", data[84 + 50 * i:84 + 50 * i + 48])
        yield v[0:3], [v[3:6], v[6:9], v[9:12]]


def project(p):
    x, y, z = p
    sx = x * math.cos(AZ) - y * math.sin(AZ)
    sy = (x * math.sin(AZ) + y * math.cos(AZ)) * math.sin(EL) - z * math.cos(EL)
    depth = (x * math.sin(AZ) + y * math.cos(AZ)) * math.cos(EL) + z * math.sin(EL)
    return sx, sy, depth


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    files = sorted(f for f in glob.glob(sys.argv[1] + "/*.stl") if not f.endswith("assembly.stl"))
    light = (0.3, -0.5, 0.8)
    norm = math.sqrt(sum(c * c for c in light))
    light = [c / norm for c in light]
    polys, offset = [], 0.0
    for k, path in enumerate(files):
        tris = list(read_stl(path))
        width = max(max(v[0] for v in vs) for _, vs in tris)
        for n, vs in tris:
            pts = [project((v[0] + offset * math.cos(AZ), v[1] - offset * math.sin(AZ), v[2]))
                   for v in vs]
            shade = 0.45 + 0.55 * max(0.0, sum(a * b for a, b in zip(n, light)))
            polys.append((sum(p[2] for p in pts) / 3, pts, COLOURS[k % len(COLOURS)], shade))
        offset += width * 1.6
    xs = [p[0] for q in polys for p in q[1]]
    ys = [p[1] for q in polys for p in q[1]]
    scale, pad = 700.0 / (max(xs) - min(xs)), 10
    w, h = (max(xs) - min(xs)) * scale + 2 * pad, (max(ys) - min(ys)) * scale + 2 * pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.0f} {h:.0f}"><rect width="100%" height="100%" fill="white"/>']
    for _, pts, colour, shade in sorted(polys, key=lambda q: -q[0]):
        r, g, b = (int(int(colour[i:i + 2], 16) * shade) for i in (1, 3, 5))
        fill = f"#{r:02x}{g:02x}{b:02x}"
        pp = " ".join(f"{(p[0] - min(xs)) * scale + pad:.1f},{(p[1] - min(ys)) * scale + pad:.1f}"
                      for p in pts)
        out.append(f'<polygon points="{pp}" fill="{fill}" stroke="{fill}" stroke-width="0.4"/>')
    out.append("</svg>\n")
    open(sys.argv[2], "w").write("\n".join(out))


if __name__ == "__main__":
    main()
