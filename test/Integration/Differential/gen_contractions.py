#!/usr/bin/env python3
# ===- gen_contractions.py - Random Tile contractions for differential tests -===#
#
# Writes a module of random `tile.contract` functions: random index spaces,
# affine accesses (strides, offsets, floordiv), constraints, aggregation and
# combination kinds, element types and shapes. Every index appears as a plain
# dimension in some access, so every generated contraction is bounded; the
# differential driver compares each function's compiled output with the
# reference interpreter's on the same random inputs. gen_edge_function
# writes the element-semantics edge cases (pow, mod, max and min on signed
# zeros, infinities and NaN; shifts past the width), compared exactly.
#
# ===----------------------------------------------------------------------===#

import argparse
import random

AGGS = ["add", "mul", "max", "min", "assign"]
COMBOS = {"none": 1, "add": 2, "mul": 2, "eq": 2, "cond": 3}
TYPES = ["f32", "f32", "f64", "si32", "si8", "ui8", "ui32", "si64", "f16"]
# Identity-ish init values per aggregation, spelled for each element class.
INIT = {
    "add": {"f": "0.0", "i": "0"},
    "assign": {"f": "-7.0", "i": "7"},
    "mul": {"f": "1.0", "i": "1"},
    "max": {"f": "-1.0e4", "i": "-100"},
    "min": {"f": "1.0e4", "i": "100"},
}


def is_float(t):
    return t.startswith("f") or t == "bf16"


def promote(a, b):
    order = lambda t: (
        3000 + {"f16": 0, "bf16": 0, "f32": 1, "f64": 2}[t]
        if is_float(t)
        else int(t[2:]) * 2 + (1 if t.startswith("ui") else 0)
    )
    if a == b:
        return a
    return a if order(a) > order(b) else b


def rand_expr(rng, dims, plain=None):
    """An affine expression over `dims`; `plain` forces a bare dimension."""
    if plain is not None:
        return plain
    terms = []
    for d in rng.sample(dims, rng.randint(1, min(2, len(dims)))):
        c = rng.choice([1, 1, 1, 2, -1])
        terms.append(d if c == 1 else f"{c} * {d}" if c > 0 else f"-{d}")
    expr = " + ".join(terms).replace("+ -", "- ")
    off = rng.choice([0, 0, 0, 1, -1, 2])
    if off > 0:
        expr += f" + {off}"
    elif off < 0:
        expr += f" - {-off}"
    if rng.random() < 0.1:
        expr = f"({expr}) floordiv 2"
    return expr


def gen_function(rng, name):
    ndims = rng.randint(1, 4)
    dims = [f"d{i}" for i in range(ndims)]
    agg = rng.choice(AGGS)
    combo = rng.choice(list(COMBOS))
    nin = COMBOS[combo]

    # Sink: a projected permutation most of the time (then `assign` is
    # well-defined when it uses every index), sometimes general.
    sink_rank = rng.randint(0, ndims)
    sink_dims = rng.sample(dims, sink_rank)
    general_sink = rng.random() < 0.15 and sink_rank > 0
    sink = [rand_expr(rng, dims) if general_sink else d for d in sink_dims]
    if agg == "assign" and (general_sink or sink_rank != ndims):
        agg = "add"

    # Inputs: every index missing from a plain sink position appears plainly
    # in some input, so each index is bounded.
    covered = set() if general_sink else set(sink_dims)
    srcs = [[] for _ in range(nin)]
    for d in dims:
        if d not in covered:
            srcs[rng.randrange(nin)].append(d)
    for s in srcs:
        for _ in range(rng.randint(0 if s else 1, 2)):
            s.append(rand_expr(rng, dims))
        rng.shuffle(s)

    sizes = lambda n: [rng.randint(1, 5) for _ in range(n)]
    in_shapes = [sizes(len(s)) for s in srcs]
    out_shape = sizes(len(sink))

    elem = rng.choice(TYPES)
    in_types = [elem] * nin
    if rng.random() < 0.3:
        in_types[rng.randrange(nin)] = rng.choice(TYPES)
    if combo == "eq":
        combo_type = "i1"
    elif combo == "cond":
        combo_type = in_types[2]
    elif combo == "none":
        combo_type = in_types[0]
    else:
        combo_type = promote(in_types[0], in_types[1])
    out_type = combo_type
    if combo_type == "i1":
        out_type = "si32"  # count matches
    if agg == "mul" and is_float(out_type):
        pass  # inputs are in [-1, 1): products stay small
    if agg in ("max", "min") and out_type.startswith("ui"):
        init = {"max": "0", "min": "200"}[agg] if out_type == "ui8" else {
            "max": "0", "min": "100000"}[agg]
    else:
        init = INIT[agg]["f" if is_float(out_type) else "i"]

    cons = []
    if rng.random() < 0.35:
        for _ in range(rng.randint(1, 2)):
            a, b = rng.choice(dims), rng.choice(dims)
            c = rng.randint(-1, 2)
            cons.append(f"{a} - {b} + {c} >= 0" if a != b else f"{a} - {c} >= 0")

    t = lambda shape, ty: "tensor<" + "".join(f"{s}x" for s in shape) + ty + ">"
    args = ", ".join(f"%in{i}: {t(s, ty)}" for i, (s, ty) in
                     enumerate(zip(in_shapes, in_types)))
    maps = lambda res: f"affine_map<({', '.join(dims)}) -> ({', '.join(res)})>"
    attrs = [f"idxs = [{', '.join(repr(d).replace(chr(39), chr(34)) for d in dims)}]",
             f"sink = {maps(sink)}",
             f"srcs = [{', '.join(maps(s) for s in srcs)}]"]
    if cons:
        attrs.append(f"cons = affine_set<({', '.join(dims)}) : ({', '.join(cons)})>")
    ins = ", ".join(f"%in{i}" for i in range(nin))
    in_tys = ", ".join(t(s, ty) for s, ty in zip(in_shapes, in_types))
    out = t(out_shape, out_type)
    return (
        f"func.func @{name}({args}) -> {out} {{\n"
        f"  %init = tile.constant dense<{init}> : tensor<{out_type}>\n"
        f"  %r = tile.contract {agg}, {combo}, %init, {ins} {{{', '.join(attrs)}}}\n"
        f"       : tensor<{out_type}>, {in_tys} -> {out}\n"
        f"  return %r : {out}\n}}\n"
    )


# Edge cases of the element semantics (docs/TileLanguage.md, "Edge cases"):
# the operands every device used to disagree on, for the ops that had them.
FLOAT_EDGES = ["0.0", "-0.0", "1.0", "-1.0", "2.0", "-2.0", "0.5", "-2.5",
               "3.0", "-3.0", "0x7F800000", "0xFF800000", "0x7FC00000"]
F64_SPECIAL = {"0x7F800000": "0x7FF0000000000000",
               "0xFF800000": "0xFFF0000000000000",
               "0x7FC00000": "0x7FF8000000000000"}
FLOAT_EDGE_OPS = ["pow", "mod", "max", "min"]
INT_EDGE_TYPES = ["si8", "ui8", "si16", "ui16", "si32", "ui32", "si64", "ui64"]


def gen_edge_function(rng, name, f64_pow=True):
    """A function without inputs applying pow/mod/max/min to float edge values
    (signed zeros, infinities, NaN, negative bases) or shifts to integers by
    amounts around and past the width (negative ones included). Without
    `f64_pow` (devices with no f64 transcendentals), f64 pow becomes f32."""
    n = 8
    if rng.random() < 0.6:
        ty = rng.choice(["f32", "f32", "f64", "f16"])
        op = rng.choice(FLOAT_EDGE_OPS)
        if ty == "f64" and op == "pow" and not f64_pow:
            ty = "f32"

        def spell(v):
            if ty == "f64":
                return F64_SPECIAL.get(v, v)
            if ty == "f16" and v in F64_SPECIAL:
                return {"0x7F800000": "0x7C00", "0xFF800000": "0xFC00",
                        "0x7FC00000": "0x7E00"}[v]
            return v

        lhs = [spell(rng.choice(FLOAT_EDGES)) for _ in range(n)]
        rhs = [spell(rng.choice(FLOAT_EDGES)) for _ in range(n)]
    else:
        ty = rng.choice(INT_EDGE_TYPES)
        op = rng.choice(["shl", "shr"])
        width = int(ty[2:])
        lo = -2 if ty.startswith("si") else 0
        lhs = [str(rng.choice([1, 3, 5, 127, -1, -8, -128]) if ty.startswith("si")
                   else rng.choice([1, 3, 5, 127, 128, 255])) for _ in range(n)]
        rhs = [str(rng.choice([lo, 0, 1, width - 1, width, width + 1,
                               2 * width])) for _ in range(n)]
    t = f"tensor<{n}x{ty}>"
    # Through tile.gather, which does not fold, so the device computes the
    # op rather than the constant folder.
    ids = f"tensor<{n}xsi32>"
    return (
        f"func.func @{name}() -> {t} {{\n"
        f"  %ids = tile.index 0 : {ids}\n"
        f"  %ca = tile.constant dense<[{', '.join(lhs)}]> : {t}\n"
        f"  %cb = tile.constant dense<[{', '.join(rhs)}]> : {t}\n"
        f"  %a = tile.gather %ca, %ids {{axis = 0}} : {t}, {ids} -> {t}\n"
        f"  %b = tile.gather %cb, %ids {{axis = 0}} : {t}, {ids} -> {t}\n"
        f"  %r = tile.{op} %a, %b : {t}\n"
        f"  return %r : {t}\n}}\n"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--prefix", default="f")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"// Generated by gen_contractions.py --seed {args.seed} --count {args.count}")
    for i in range(args.count):
        print(gen_function(rng, f"{args.prefix}{i}"))


if __name__ == "__main__":
    main()
