#!/usr/bin/env python3
# ===- gen_node_tests.py - Write the ONNX backend node tests ---------------===#
#
# The onnx package ships the generator of its backend node tests
# (onnx/backend/test/case/node: single-node models with inputs and expected
# outputs, deterministic) but not the data. This writes them the way
# `onnx.backend.test.cmd_tools generate-data` does: OUT/<test>/model.onnx and
# OUT/<test>/test_data_set_0/{input,output}_N.pb, plus OUT/index.json mapping
# each test to the op it tests (an `_expanded` test, the op's function
# expansion, counts for that op) and the op types its graph uses. Tensor
# inputs and outputs only: tests with sequences, maps or optionals are
# listed with "skip" and no files.
#
# ===----------------------------------------------------------------------===#
import argparse
import json
import os
import re
import shutil
import sys
import warnings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    import numpy as np

    np.seterr(all="ignore")
    import onnx
    from onnx import TensorProto, numpy_helper
    import onnx.backend.test.case.node as node

    cases = node.collect_testcases()
    base_op = {}
    for case in cases:
        if not case.name.endswith("_expanded") and "_expanded_ver" not in case.name:
            ops = {n.op_type for n in case.model.graph.node}
            if len(ops) == 1:
                base_op[case.name] = next(iter(ops))
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    index = {}
    for case in cases:
        name = case.name
        base = re.sub(r"_expanded(_ver\d+)?$", "", name)
        ops = sorted({n.op_type for n in case.model.graph.node})
        op = base_op.get(base) or (ops[0] if len(ops) == 1 else base)
        entry = {"op": op, "ops": ops, "expanded": base != name,
                 "opset": [o.version for o in case.model.opset_import
                           if o.domain in ("", "ai.onnx")][:1]}
        index[name] = entry
        g = case.model.graph
        entry["types"] = sorted({v.type.tensor_type.elem_type
                                 for v in list(g.input) + list(g.output)
                                 if v.type.HasField("tensor_type")})
        if not all(v.type.HasField("tensor_type")
                   for v in list(g.input) + list(g.output)):
            entry["skip"] = "sequence, map or optional values"
            continue
        d = os.path.join(args.out, name)
        os.makedirs(os.path.join(d, "test_data_set_0"))
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        inputs, outputs = case.data_sets[0]
        for kind, values, infos in (("input", inputs, g.input),
                                    ("output", outputs, g.output)):
            for j, v in enumerate(values):
                if isinstance(v, TensorProto):
                    t = v
                else:
                    t = numpy_helper.from_array(np.asarray(v), infos[j].name)
                t.name = infos[j].name
                with open(os.path.join(d, "test_data_set_0",
                                       f"{kind}_{j}.pb"), "wb") as f:
                    f.write(t.SerializeToString())
    with open(os.path.join(args.out, "index.json"), "w") as f:
        json.dump(index, f, indent=0, sort_keys=True)
    print(f"gen_node_tests: {len(index)} tests in {args.out}")


if __name__ == "__main__":
    sys.exit(main())
