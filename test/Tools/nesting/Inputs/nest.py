#!/usr/bin/env python3
# ===- nest.py - Deeply nested MLIR for the nesting-limit tests ------------===#
#
# `nest.py attribute N`: a function whose attribute is an array nested N
# levels deep, the nest starting at line 2, column 1. `nest.py regions N`:
# N nested builtin.module ops, one `module {` per line. Both have one more
# level (the function's attribute dictionary, the outermost module) around.
#
# ===----------------------------------------------------------------------===#
import sys

kind, depth = sys.argv[1], int(sys.argv[2])
if kind == "attribute":
    print("func.func @f() attributes {a =")
    print("[" * depth + "1" + "]" * depth + "} {")
    print("  return")
    print("}")
elif kind == "regions":
    print("module {\n" * depth, end="")
    print("}\n" * depth, end="")
else:
    sys.exit(f"nest.py: unknown kind {kind!r}")
