#!/usr/bin/env python3
# Checks that the documentation names only files that exist.
#
# Usage: check-doc-references.py REPO_ROOT
#
# Reads every Markdown file of the repository (README.md, docs/, python/,
# docs/generated/ included) and reports
#   - a Markdown link [text](target) whose target (relative to the file, or
#     to the repository root when it starts with '/') does not exist, and
#   - a path that starts with one of the repository's top-level directories
#     (lib/, include/, test/, tools/, docs/, bench/, examples/, cmake/,
#     scripts/, python/) and does not exist, relative to the root.
# Paths with placeholders (<name>, *, ..., {a,b}, $VAR, %t) are patterns,
# not names, and are skipped; a path may end in a directory. Exits 1 and
# prints "FILE:LINE: ..." for every problem, so CI fails on a stale name.

import os
import re
import subprocess
import sys

TOP_DIRS = ("lib", "include", "test", "tools", "docs", "bench", "examples",
            "cmake", "scripts", "python")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w/.$%<{-])((?:" + "|".join(TOP_DIRS) +
                  r")/[\w./+-]*[\w/])")
PLACEHOLDER = re.compile(r"[<>*{}$%]|\.\.\.|\b(X|Y|Foo|foo)\b")
CODE_SPAN = re.compile(r"`[^`]*`")


def markdown_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "*.md"],
                             capture_output=True, text=True, check=True)
        files = [f for f in out.stdout.split("\n") if f]
        # New, not yet committed files are documentation too.
        out = subprocess.run(["git", "-C", root, "ls-files", "--others",
                              "--exclude-standard", "*.md"],
                             capture_output=True, text=True, check=True)
        files += [f for f in out.stdout.split("\n") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames
                           if not d.startswith(".") and d != "build"]
            files += [os.path.relpath(os.path.join(dirpath, f), root)
                      for f in filenames if f.endswith(".md")]
    return sorted(set(files))


def exists(root, base, target):
    path = os.path.join(root, target.lstrip("/")) if target.startswith("/") \
        else os.path.join(base, target)
    return os.path.exists(path)


def main():
    if len(sys.argv) != 2:
        print("usage: check-doc-references.py REPO_ROOT", file=sys.stderr)
        return 2
    root = os.path.abspath(sys.argv[1])
    problems = []
    for doc in markdown_files(root):
        base = os.path.dirname(os.path.join(root, doc))
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            lines = f.read().split("\n")
        in_fence = False
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
            # Links, outside code: `a[i](x)` is an expression.
            prose = "" if in_fence else CODE_SPAN.sub("", line)
            for match in LINK.finditer(prose):
                target = match.group(1).split("#")[0]
                if not target or re.match(r"^[a-z]+:", target):
                    continue
                if not exists(root, base, target):
                    problems.append("%s:%d: link to '%s', which does not "
                                    "exist" % (doc, number, target))
            for match in PATH.finditer(line):
                name = match.group(1).rstrip(".")
                end = match.end(1)
                # A pattern, or a name continued by a placeholder.
                after = line[end:].lstrip(".")
                if PLACEHOLDER.search(name) or after[:1] in ("<", "*", "{",
                                                             "$", "%"):
                    continue
                if not os.path.exists(os.path.join(root, name)):
                    problems.append("%s:%d: names '%s', which does not "
                                    "exist" % (doc, number, name))
    for problem in problems:
        print(problem)
    if problems:
        print("%d stale reference(s): fix the document or the name" %
              len(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
