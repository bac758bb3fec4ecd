"""Checks that plaidml-opt and plaidml-translate reproduce plaidml-compile.

Usage: reproduce-compile.py PLAIDML_COMPILE PLAIDML_OPT PLAIDML_TRANSLATE
       WORKDIR INPUT [plaidml-compile flags...]

Asks plaidml-compile for its pipeline (--print-pipeline), runs that pipeline
with plaidml-opt, translates the result with plaidml-translate
--mlir-to-llvmir, and compares the LLVM IR with what plaidml-compile itself
translated (--emit-llvm-ir) while building the artifact. Prints the pipeline
and "identical: N lines"; exits 1 with the first differing lines otherwise.
"""

import os
import subprocess
import sys


def run(args, stdin=None):
    result = subprocess.run(args, input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), result.stderr))
    return result.stdout


def main():
    compile_, opt, translate, workdir, source = sys.argv[1:6]
    flags = sys.argv[6:]
    os.makedirs(workdir, exist_ok=True)
    pipeline = run([compile_, source, "--print-pipeline", *flags]).strip()
    print("pipeline:", pipeline)
    compiled = os.path.join(workdir, "compile.ll")
    run([compile_, source, *flags, "-o", os.path.join(workdir, "a.so"),
         "--emit-llvm-ir", compiled])
    lowered = run([opt, source, "--pass-pipeline=" + pipeline])
    translated = run([translate, "--mlir-to-llvmir"], stdin=lowered)
    with open(compiled) as f:
        expected = f.read().splitlines()
    actual = translated.splitlines()
    for i, (a, b) in enumerate(zip(expected, actual)):
        if a != b:
            sys.exit("line %d differs:\n  plaidml-compile:   %s\n"
                     "  plaidml-opt+translate: %s" % (i + 1, a, b))
    if len(expected) != len(actual):
        sys.exit("plaidml-compile gave %d lines, plaidml-opt+translate %d" %
                 (len(expected), len(actual)))
    print("identical: %d lines" % len(expected))


if __name__ == "__main__":
    main()
