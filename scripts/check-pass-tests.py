#!/usr/bin/env python3
# Checks that every pass has a lit test named by its flag.
#
# Usage: check-pass-tests.py REPO_ROOT
#
# Reads every `Pass<"flag", ...>` declaration of the TableGen files under
# include/ and looks under test/ for a test file named by the flag: FLAG.mlir,
# FLAG.test or FLAG.tile, or one with a suffix (FLAG-invalid.mlir), where the
# project prefixes plaidml- and tile- may be left out of the file name
# (test/Transforms/fuse-elementwise.mlir tests plaidml-fuse-elementwise).
# The test must also run the flag (`-FLAG` on one of its RUN lines, or a
# pipeline naming it). Exits 1 and prints each pass without such a test.

import os
import re
import sys

PASS = re.compile(r'Pass<\s*"([a-z0-9-]+)"')
SUFFIXES = (".mlir", ".test", ".tile")


def main():
    root = sys.argv[1]
    flags = set()
    for dirpath, _, files in os.walk(os.path.join(root, "include")):
        for name in files:
            if name.endswith(".td"):
                with open(os.path.join(dirpath, name)) as f:
                    flags.update(PASS.findall(f.read()))
    tests = {}
    for dirpath, _, files in os.walk(os.path.join(root, "test")):
        for name in files:
            if name.endswith(SUFFIXES):
                tests.setdefault(os.path.splitext(name)[0], []).append(
                    os.path.join(dirpath, name))
    missing = []
    for flag in sorted(flags):
        stems = {flag, re.sub(r"^(plaidml|tile)-", "", flag)}
        candidates = [path for stem, paths in tests.items()
                      for path in paths
                      if any(stem == s or stem.startswith(s + "-")
                             for s in stems)]
        runs = False
        for path in candidates:
            with open(path) as f:
                text = f.read()
            if re.search(r"RUN:.*[-=,(]" + re.escape(flag) + r"\b", text):
                runs = True
                break
        if not runs:
            missing.append(flag)
            where = ", ".join(os.path.relpath(p, root) for p in candidates)
            print("pass -%s has no lit test named by its flag that runs it%s"
                  % (flag, " (found, not running it: " + where + ")"
                     if where else ""))
    print("%d passes, %d without a test" % (len(flags), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
