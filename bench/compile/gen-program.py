#!/usr/bin/env python3
# ===- bench/compile/gen-program.py - Large Tile programs for compile time -===#
#
# Writes a Tile-dialect program of about N ops to stdout, to measure how the
# compiler's time grows with the size of a program (bench/compile/run.sh,
# docs/Performance.md). Networks hold thousands of constants (weights, biases,
# scales) and long chains of elementwise ops, so the programs are:
#
#   constants  N/2 tile.constant ops, each added into a running sum
#              (convert-tile-to-affine was once cubic in their number);
#   mixed      N/5 blocks of a constant, a 4x4 matmul (tile.contract), an
#              add, a relu and a tanh, chained, so the contraction and
#              elementwise lowerings and the fusion see thousands of ops.
#
# Each program has one function, @main, with one input and one output, so
# `plaidml-run` can also run it (the result is checked by nothing here: this
# is a compile-time benchmark; test/Pipelines/cpu-many-constants.test keeps a
# few thousand constants compiling in CI).
#
# ===----------------------------------------------------------------------===#
import argparse
import sys


def constants(n):
    count = max(1, n // 2)
    lines = ["func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {"]
    prev = "%x"
    for i in range(count):
        v = [(i * 4 + k) % 97 * 0.25 for k in range(4)]
        lines.append(
            f"  %c{i} = tile.constant dense<[{v[0]}, {v[1]}, {v[2]}, {v[3]}]>"
            " : tensor<4xf32>")
        lines.append(f"  %s{i} = tile.add {prev}, %c{i} : tensor<4xf32>")
        prev = f"%s{i}"
    lines.append(f"  return {prev} : tensor<4xf32>")
    lines.append("}")
    return lines


def mixed(n):
    blocks = max(1, n // 5)
    lines = [
        "func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {",
        "  %zero = tile.constant dense<0.0> : tensor<f32>",
    ]
    prev = "%x"
    for i in range(blocks):
        rows = ", ".join(
            "[" + ", ".join(f"{(i + r * 3 + c) % 7 * 0.125}" for c in range(4))
            + "]" for r in range(4))
        lines += [
            f"  %w{i} = tile.constant dense<[{rows}]> : tensor<4x4xf32>",
            f"  %m{i} = tile.contract add, mul, %zero, {prev}, %w{i}"
            ' {idxs = ["m", "n", "k"], sink = affine_map<(m, n, k) -> (m, n)>,'
            " srcs = [affine_map<(m, n, k) -> (m, k)>,"
            " affine_map<(m, n, k) -> (k, n)>]}"
            " : tensor<f32>, tensor<4x4xf32>, tensor<4x4xf32>"
            " -> tensor<4x4xf32>",
            f"  %a{i} = tile.add %m{i}, %w{i} : tensor<4x4xf32>",
            f"  %r{i} = tile.relu %a{i} : tensor<4x4xf32>",
            f"  %t{i} = tile.tanh %r{i} : tensor<4x4xf32>",
        ]
        prev = f"%t{i}"
    lines.append(f"  return {prev} : tensor<4x4xf32>")
    lines.append("}")
    return lines


def main():
    parser = argparse.ArgumentParser(
        description="Write a Tile program of about N ops to stdout.")
    parser.add_argument("kind", choices=["constants", "mixed"])
    parser.add_argument("ops", type=int, help="about how many ops")
    args = parser.parse_args()
    if args.ops < 1:
        parser.error("ops must be at least 1")
    gen = constants if args.kind == "constants" else mixed
    sys.stdout.write("\n".join(gen(args.ops)) + "\n")


if __name__ == "__main__":
    main()
