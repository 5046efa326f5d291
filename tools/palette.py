#!/usr/bin/env python3
"""Chooses the 30 piece colours of src/puzzle/colour.cpp (run once; the result is pasted there).

    python3 tools/palette.py     # needs numpy (Debian: python3-numpy)

Candidates: the sRGB grid with steps of 15 whose CIE L* lies in 38..90 (dark enough to show on a
white page, light enough for black outlines and the viewer's shading to show). The first colour
is the candidate nearest to a strong red; each next one is the candidate whose smallest CIEDE2000
difference to the colours taken so far (and to black and white) is largest. So for every n the
first n colours are far apart, which is what a puzzle of n pieces gets. Prints the minimum
difference among the first n for a few n, then the colours."""
import itertools

import numpy as np


def lab(rgb):
    c = np.asarray(rgb, float) / 255
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = c @ m.T / np.array([0.95047, 1.0, 1.08883])
    d = 6 / 29
    f = np.where(xyz > d ** 3, np.cbrt(xyz), xyz / (3 * d * d) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                     200 * (f[..., 1] - f[..., 2])], -1)


def ciede2000(p, q):
    l1, a1, b1 = p[..., 0], p[..., 1], p[..., 2]
    l2, a2, b2 = q[..., 0], q[..., 1], q[..., 2]
    cb = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(cb ** 7 / (cb ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1 = np.degrees(np.arctan2(b1, a1p)) % 360
    h2 = np.degrees(np.arctan2(b2, a2p)) % 360
    dh = h2 - h1
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(c1 * c2 == 0, 0, dh)
    dhh = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    lm, cm, hs = (l1 + l2) / 2, (c1 + c2) / 2, h1 + h2
    hm = np.where(np.abs(h1 - h2) > 180, np.where(hs < 360, (hs + 360) / 2, (hs - 360) / 2), hs / 2)
    hm = np.where(c1 * c2 == 0, hs, hm)
    t = (1 - 0.17 * np.cos(np.radians(hm - 30)) + 0.24 * np.cos(np.radians(2 * hm)) +
         0.32 * np.cos(np.radians(3 * hm + 6)) - 0.20 * np.cos(np.radians(4 * hm - 63)))
    rt = -np.sin(np.radians(60 * np.exp(-((hm - 275) / 25) ** 2))) * 2 * np.sqrt(
        cm ** 7 / (cm ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lm - 50) ** 2 / np.sqrt(20 + (lm - 50) ** 2)
    sc, sh = 1 + 0.045 * cm, 1 + 0.015 * cm * t
    dl, dc = l2 - l1, c2 - c1
    return np.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def main():
    levels = np.arange(0, 256, 15)
    grid = np.array(list(itertools.product(levels, levels, levels)))
    cand = lab(grid)
    keep = (cand[:, 0] >= 38) & (cand[:, 0] <= 90)
    grid, cand = grid[keep], cand[keep]
    black_white = lab(np.array([[255, 255, 255], [0, 0, 0]]))
    nearest = np.minimum(ciede2000(cand, black_white[0][None, :]),
                         ciede2000(cand, black_white[1][None, :]))
    chosen = [int(np.argmin(np.sum((grid - np.array([225, 30, 60])) ** 2, 1)))]
    while len(chosen) < 30:
        nearest = np.minimum(nearest, ciede2000(cand, cand[chosen[-1]][None, :]))
        chosen.append(int(np.argmax(nearest)))
    pal, pl = grid[chosen], cand[chosen]
    for n in (7, 13, 20, 25, 30):
        d = ciede2000(pl[:n, None, :], pl[None, :n, :])
        d[np.arange(n), np.arange(n)] = np.inf
        print("first %2d: smallest CIEDE2000 %.1f" % (n, d.min()))
    print(", ".join("{%d, %d, %d}" % tuple(c) for c in pal))


if __name__ == "__main__":
    main()
