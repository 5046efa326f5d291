#!/usr/bin/env python3
"""Runs the `$ cubex ...` examples of README.md and docs/*.md and rewrites the outputs that differ.

    tools/doc_examples.py [--check] [--build DIR] [PAGE...]

The same rules as the test DocsExamples.* (tests/test_docs.cpp): an example is a fenced block
with a line `$ cubex ...`, `$ build/cubex ...` or `$ ./build/cubex ...`; each `$ ` line of it is
run by sh, in order, in a scratch folder that links every entry of the repository root, with
build/cubex the program of DIR (default build); the lines after a command are its standard
output. Times, rates, `updates:` counts, and the nodes of a run stopped early, are masked when
comparing. A block after `<!-- no-run -->` is left alone.

Without --check, a command whose output differs gets the program's output in its place. Not
rewritten, only reported: a command whose shown output has a `...` line, and a block in which a
command printed nothing on standard output where the page shows lines (its output goes to
standard error: mark the block `<!-- no-run -->` or add `2>&1`), or that took over a second.
The exit status is 1 when something differs or was reported, else 0.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def masked(line, stopped):
    line = re.sub(r"[0-9][0-9.,]* ?[kMG]? ?nodes/s", "<rate>", line)
    line = re.sub(r"\b[0-9][0-9.,]* ?(s|ms|us)\b", "<time>", line)
    line = re.sub(r"updates: [0-9,]+", "updates: <n>", line)
    if stopped:
        line = re.sub(r"^nodes: [0-9,]+", "nodes: <n>", line)
    return line.rstrip(" \r")


def trimmed(lines):
    lines = list(lines)
    while lines and masked(lines[-1], False) == "":
        lines.pop()
    return lines


def matches(expected, actual):
    expected, actual = trimmed(expected), trimmed(actual)
    stopped = any("(stopped at" in l for l in expected)
    memo = {}

    def go(i, j):
        if i == len(expected):
            return j == len(actual)
        if (i, j) not in memo:
            if expected[i] == "...":
                ok = go(i + 1, j) or (j < len(actual) and go(i, j + 1))
            else:
                ok = j < len(actual) and masked(expected[i], stopped) == masked(actual[j], stopped) \
                    and go(i + 1, j + 1)
            memo[(i, j)] = ok
        return memo[(i, j)]

    sys.setrecursionlimit(100000)
    return go(0, 0)


def runs_cubex(command):
    return command.startswith(("cubex ", "build/cubex ", "./build/cubex "))


def scratch_root(exe):
    d = tempfile.mkdtemp(prefix="cubex-docs-")
    for name in os.listdir(ROOT):
        if name not in ("build", ".git"):
            os.symlink(os.path.join(ROOT, name), os.path.join(d, name))
    os.mkdir(os.path.join(d, "build"))
    os.symlink(exe, os.path.join(d, "build", "cubex"))
    return d


def process(page, exe, check):
    path = os.path.join(ROOT, page)
    lines = open(path).read().split("\n")
    out, problems, k, no_run = [], 0, 0, False
    while k < len(lines):
        line = lines[k]
        if "<!-- no-run -->" in line:
            no_run = True
            out.append(line)
            k += 1
            continue
        if not line.startswith("```"):
            no_run = no_run and not line
            out.append(line)
            k += 1
            continue
        end = k + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        body = lines[k + 1:end]
        commands, head = [], []
        for b in body:
            if b.startswith("$ "):
                commands.append([b, []])
            elif commands:
                commands[-1][1].append(b)
            else:
                head.append(b)
        if no_run or not any(runs_cubex(c[2:]) for c, _ in commands):
            out.extend(lines[k:end + 1])
            k, no_run = end + 1, False
            continue
        where = f"{page}:{k + 1}"
        root = scratch_root(exe)
        new_body, rewrite = list(head), True
        for c, shown in commands:
            command = c[2:]
            if command.startswith("cubex "):
                command = "build/" + command
            t0 = time.time()
            r = subprocess.run(["sh", "-c", "{ " + command + " ; } 2>/dev/null"], cwd=root,
                               capture_output=True, text=True, errors="replace")
            seconds = time.time() - t0
            actual = r.stdout.split("\n")
            if actual and actual[-1] == "":
                actual.pop()
            new_body.append(c)
            if seconds > 1:
                print(f"{where}: {c}: took {seconds:.1f} s (mark the block <!-- no-run -->)")
                problems += 1
            if matches(shown, actual):
                new_body.extend(shown)
                continue
            problems += 1
            if "..." in shown or (not actual and any(x.strip() for x in shown)):
                print(f"{where}: {c}: differs; not rewritten (a '...' line, or the output goes "
                      "to standard error)")
                rewrite = False
                new_body.extend(shown)
                continue
            print(f"{where}: {c}: differs" + ("" if check else ": rewritten"))
            tail = []
            for x in reversed(shown):
                if x.strip():
                    break
                tail.append(x)
            new_body.extend(actual + tail)
        shutil.rmtree(root, ignore_errors=True)
        out.append(lines[k])
        out.extend(new_body if rewrite else body)
        out.append(lines[end] if end < len(lines) else "```")
        k = end + 1
    if not check:
        open(path, "w").write("\n".join(out))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="report only, rewrite nothing")
    ap.add_argument("--build", default="build", help="the build folder (default build)")
    ap.add_argument("pages", nargs="*", help="pages (default README.md and docs/*.md)")
    a = ap.parse_args()
    exe = os.path.abspath(os.path.join(a.build, "cubex"))
    if not os.access(exe, os.X_OK):
        sys.exit(f"doc_examples.py: no {exe} (build it first)")
    pages = a.pages or ["README.md"] + sorted(
        "docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    problems = sum(process(p, exe, a.check) for p in pages)
    print(f"doc_examples.py: {problems} command(s) differ or need a look")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
