#!/usr/bin/env python3
"""Opens a `cubex render --html` page in headless Chromium and checks it, with the standard
library only: Chromium's DevTools protocol over --remote-debugging-pipe (fd 3: commands in, fd 4:
replies out, each a JSON message ended by a NUL byte).

    viewer_check.py CHROMIUM PAGE.html OUT_DIR

Takes a screenshot, sends the key ArrowRight, takes another, and prints JSON: the label before
and after, the number of distinct colours and of non-white pixels in the first screenshot, and
how many pixels differ between the two. The screenshots are left in OUT_DIR (before.png,
after.png). Then:
- "edges": the piece-boundary (heavy) and seam (thin) edges the page finds for the first
  solution, and the same counted here from the cells ("expected_edges"), and "dark": how many
  pixels of the first screenshot are nearly black (the heavy lines);
- "png": clicks the "save PNG" button with downloads allowed into OUT_DIR and reports the file
  it got: its name, whether it is a PNG, its size and how many of its pixels are not white;
- "address": opens PAGE#solution=2&explode=0.5&view=top afresh and reports the label, the
  explode slider, the view, and the address after pressing ArrowLeft;
- "controls": which of the zoom, fit and disassembly controls exist, the scale (pixels per cell)
  before and after zoom in (button, key +, mouse wheel) and fit, and where the picture's ink
  lies in the canvas (its box and the canvas' size, in half-size screenshots of the canvas)
  fitted and zoomed in, with every move made;
- "steps" (a page written with --disassemble): after ArrowDown the step, its label, the group
  that moves and its shift, the address and how many pixels of the canvas (half size, "area"
  in all) changed; after ArrowUp the step
  and the shifts again.
Exit status 0 when it could run the page, 3 when Chromium would not start."""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib


def decode_png(data):
    """RGB(A) 8-bit PNG -> (width, height, channels, rows of bytes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            depth, colour, interlace = body[8], body[9], body[12]
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format"
            ch = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * ch
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, ch, rows


def count_edges(solution):
    """Heavy and thin edges of the faces the viewer draws, counted from the cells: every face of a
    cell not against a cell of its own piece has four edges; an edge is thin (a seam) when the
    cell across it, in the face's plane, is of the same piece and shows a face the same way."""
    heavy = thin = 0
    for p in solution["pieces"]:
        c = p["cells"]
        own = {tuple(c[i:i + 3]) for i in range(0, len(c), 3)}
        for cell in own:
            for axis in range(3):
                for sign in (-1, 1):
                    n = [0, 0, 0]
                    n[axis] = sign
                    if tuple(cell[i] + n[i] for i in range(3)) in own:
                        continue
                    for other in range(3):
                        if other == axis:
                            continue
                        for step in (-1, 1):
                            m = list(cell)
                            m[other] += step
                            beyond = tuple(m[i] + n[i] for i in range(3))
                            if tuple(m) in own and beyond not in own:
                                thin += 1
                            else:
                                heavy += 1
    return {"heavy": heavy, "thin": thin}


class Browser:
    def __init__(self, chromium, profile):
        cmd_r, self.cmd_w = os.pipe()
        self.resp_r, resp_w = os.pipe()

        def child():
            os.dup2(cmd_r, 3)
            os.dup2(resp_w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-pipe", "--user-data-dir=" + profile, "--window-size=900,600",
             "--no-first-run", "--no-default-browser-check", "about:blank"],
            pass_fds=(3, 4), preexec_fn=child, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(resp_w)
        self.next_id, self.buf = 0, b""

    def call(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        end = time.time() + timeout
        while time.time() < end:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError("%s: %s" % (method, reply["error"]))
                    return reply["result"]
            chunk = os.read(self.resp_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        raise RuntimeError("no reply to " + method)

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def main(chromium, page, out_dir):
    with tempfile.TemporaryDirectory() as profile:
        try:
            b = Browser(chromium, profile)
            target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        except (OSError, RuntimeError) as e:
            print(json.dumps({"error": str(e)}))
            return 3
        try:
            s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            b.call("Page.enable", session=s)
            b.call("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session=s)

            def evaluate(expr):
                r = b.call("Runtime.evaluate", {"expression": expr, "returnByValue": True},
                           session=s)
                return r["result"].get("value")

            for _ in range(100):
                if evaluate("document.readyState") == "complete" and evaluate(
                        "!!document.getElementById('label')"):
                    break
                time.sleep(0.1)
            time.sleep(0.3)

            def shot(name):
                png = base64.b64decode(
                    b.call("Page.captureScreenshot", {"format": "png"}, session=s)["data"])
                with open(os.path.join(out_dir, name), "wb") as f:
                    f.write(png)
                return decode_png(png)

            label_before = evaluate("document.getElementById('label').textContent")
            w, h, ch, before = shot("before.png")
            b.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": "ArrowRight",
                                              "code": "ArrowRight", "windowsVirtualKeyCode": 39},
                   session=s)
            b.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": "ArrowRight",
                                              "code": "ArrowRight", "windowsVirtualKeyCode": 39},
                   session=s)
            time.sleep(0.3)
            label_after = evaluate("document.getElementById('label').textContent")
            w2, h2, ch2, after = shot("after.png")
            colours, ink, changed = set(), 0, 0
            for y in range(h):
                r0 = before[y]
                r1 = after[y] if y < h2 else b""
                for x in range(0, w * ch, ch):
                    px = r0[x:x + 3]
                    colours.add(px)
                    ink += px != b"\xff\xff\xff"
                    changed += r1[x:x + 3] != px
            result = {"label_before": label_before, "label_after": label_after,
                      "width": w, "height": h, "colours": len(colours), "ink": ink,
                      "changed": changed}

            # Heavy and thin edges of solution 1: the page's, and counted here from the cells.
            result["edges"] = evaluate(
                "(() => { const f = buildFaces(DATA.solutions[0]).faces; let heavy = 0, thin = 0;"
                " for (const x of f) for (const h of x.heavy) { if (h) heavy++; else thin++; }"
                " return {heavy, thin}; })()")
            data = evaluate("DATA")
            result["expected_edges"] = count_edges(data["solutions"][0])
            result["dark"] = sum(1 for y in range(h) for x in range(0, w * ch, ch)
                                 if sum(before[y][x:x + 3]) < 3 * 40)

            # The PNG export, as a real download.
            b.call("Browser.setDownloadBehavior", {"behavior": "allow",
                                                   "downloadPath": os.path.abspath(out_dir)})
            name = evaluate("cubex.pngName()")
            target_png = os.path.join(out_dir, name)
            if os.path.exists(target_png):
                os.remove(target_png)
            evaluate("document.getElementById('png').click()")
            for _ in range(100):
                if os.path.exists(target_png) and os.path.getsize(target_png) > 0:
                    break
                time.sleep(0.1)
            time.sleep(0.2)
            png = {"name": name, "exists": os.path.exists(target_png)}
            if png["exists"]:
                with open(target_png, "rb") as f:
                    raw = f.read()
                png["is_png"] = raw[:8] == b"\x89PNG\r\n\x1a\n"
                if png["is_png"]:
                    pw, ph, pch, prows = decode_png(raw)
                    png.update({"width": pw, "height": ph,
                                "ink": sum(1 for row in prows for x in range(0, pw * pch, pch)
                                           if row[x:x + 3] != b"\xff\xff\xff")})
            result["png"] = png

            # The address: solution, explode and view, read when the page opens.
            b.call("Page.navigate", {"url": "about:blank"}, session=s)
            time.sleep(0.3)
            b.call("Page.navigate", {"url": "file://" + os.path.abspath(page) +
                                     "#solution=2&explode=0.5&view=top"}, session=s)
            for _ in range(100):
                if evaluate("document.readyState") == "complete" and evaluate(
                        "!!window.cubex"):
                    break
                time.sleep(0.1)
            time.sleep(0.3)
            address = {"label": evaluate("document.getElementById('label').textContent"),
                       "explode": evaluate("document.getElementById('explode').value"),
                       "view": evaluate("cubex.state.view"),
                       "pitch": evaluate("cubex.state.pitch * 180 / Math.PI")}
            b.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": "ArrowLeft",
                                              "code": "ArrowLeft", "windowsVirtualKeyCode": 37},
                   session=s)
            b.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": "ArrowLeft",
                                              "code": "ArrowLeft", "windowsVirtualKeyCode": 37},
                   session=s)
            time.sleep(0.2)
            address["hash_after_left"] = evaluate("location.hash")
            result["address"] = address

            def key(name, code, vk):
                for kind in ("keyDown", "keyUp"):
                    params = {"type": kind, "key": name, "code": code, "windowsVirtualKeyCode": vk}
                    if kind == "keyDown" and len(name) == 1:
                        params["text"] = name
                    b.call("Input.dispatchKeyEvent", params, session=s)
                time.sleep(0.2)

            def canvas_shot(name):
                """The canvas alone at half size (fewer pixels to decode here)."""
                r = b.call("Runtime.evaluate", {"expression": "(() => { const r = document."
                           "getElementById('view').getBoundingClientRect(); return [r.left, r.top,"
                           " r.width, r.height]; })()", "returnByValue": True}, session=s)
                x, y, cw, chh = r["result"]["value"]
                png = base64.b64decode(b.call("Page.captureScreenshot", {
                    "format": "png", "clip": {"x": x, "y": y, "width": cw, "height": chh,
                                              "scale": 0.5}}, session=s)["data"])
                with open(os.path.join(out_dir, name), "wb") as f:
                    f.write(png)
                return decode_png(png)

            def ink_box(shot):
                """The box of the non-white pixels of a canvas_shot, and its size."""
                width, height, chs, rows = shot
                x0, y0, x1, y1 = width, height, -1, -1
                for y in range(height):
                    row = rows[y]
                    for x in range(width):
                        if row[x * chs:x * chs + 3] != b"\xff\xff\xff":
                            x0, x1 = min(x0, x), max(x1, x)
                            y0, y1 = min(y0, y), max(y1, y)
                return [x0, y0, x1, y1, width, height]

            # Zoom and fit, on solution 1 as it opens.
            b.call("Page.navigate", {"url": "about:blank"}, session=s)
            time.sleep(0.3)
            b.call("Page.navigate", {"url": "file://" + os.path.abspath(page) + "#solution=1"},
                   session=s)
            for _ in range(100):
                if evaluate("document.readyState") == "complete" and evaluate("!!window.cubex"):
                    break
                time.sleep(0.1)
            time.sleep(0.3)
            controls = {name: evaluate("!!document.getElementById('%s')" % name)
                        for name in ("zoomin", "zoomout", "fit", "stepback", "stepnext", "play")}
            controls["scale"] = evaluate("cubex.scale")
            evaluate("document.getElementById('zoomin').click()")
            controls["scale_zoomin"] = evaluate("cubex.scale")
            key("+", "Equal", 187)
            controls["scale_plus"] = evaluate("cubex.scale")
            evaluate("document.getElementById('fit').click()")
            controls["scale_fit"] = evaluate("cubex.scale")
            b.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": 600, "y": 300,
                                                "deltaX": 0, "deltaY": -100}, session=s)
            time.sleep(0.2)
            controls["scale_wheel"] = evaluate("cubex.scale")
            key("0", "Digit0", 48)
            controls["scale_key0"] = evaluate("cubex.scale")
            # Every move made (the pieces spread out), fitted: the ink inside the canvas; then
            # zoomed in five times: it runs over the canvas' edges.
            evaluate("cubex.goToStep(1e9, true)")
            time.sleep(0.2)
            controls["ink_fitted"] = ink_box(canvas_shot("fitted.png"))
            for _ in range(5):
                evaluate("document.getElementById('zoomin').click()")
            time.sleep(0.2)
            controls["ink_zoomed"] = ink_box(canvas_shot("zoomed.png"))
            evaluate("cubex.goToStep(0, true)")
            key("0", "Digit0", 48)
            result["controls"] = controls

            # The disassembly: a move forward and back with the arrows.
            if evaluate("!!(DATA.solutions[0].moves && DATA.solutions[0].moves.length)"):
                w4, h4, ch4, assembled = canvas_shot("assembled.png")
                key("ArrowDown", "ArrowDown", 40)
                time.sleep(0.6)
                w4, h4, ch4, moved = canvas_shot("moved.png")
                steps = {"visible": evaluate(
                    "document.getElementById('disassembly').style.display !== 'none'"),
                         "step": evaluate("cubex.state.step"),
                         "shown": evaluate("cubex.state.shown"),
                         "label": evaluate("document.getElementById('steplabel').textContent"),
                         "level": evaluate("document.getElementById('level').textContent"),
                         "moving": evaluate("cubex.movingGroup()"),
                         "expected_moving": evaluate("DATA.solutions[0].moves[0].pieces"),
                         "shifts": evaluate("cubex.shifts()"),
                         "expected_shift": evaluate("DATA.solutions[0].moves[0].shift"),
                         "hash": evaluate("location.hash"),
                         "changed": sum(1 for y in range(h4) for x in range(0, w4 * ch4, ch4)
                                        if assembled[y][x:x + 3] != moved[y][x:x + 3]),
                         "area": w4 * h4}
                key("ArrowUp", "ArrowUp", 38)
                time.sleep(0.6)
                steps["step_back"] = evaluate("cubex.state.step")
                steps["shifts_back"] = evaluate("cubex.shifts()")
                steps["label_back"] = evaluate(
                    "document.getElementById('steplabel').textContent")
                result["steps"] = steps
            print(json.dumps(result))
            return 0
        finally:
            b.close()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
