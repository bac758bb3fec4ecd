# Reads the output of plaidml-translate --mlir-to-opencl-c on stdin, writes
# each program (after its "// gpu.binary @NAME" or "// gpu.module @NAME"
# line) to WORKDIR/NAME.cl and compiles it with clang as OpenCL C 1.2 for
# spir64 (a target with cl_khr_fp16 and cl_khr_fp64), warnings as errors:
# a check of the generated text independent of the OpenCL driver at hand.
# Usage: opencl-c-check.py CLANG WORKDIR
# Prints "OK <n> <name>" per program that compiles, "ERROR <n> <name>:" and
# clang's messages otherwise, then "PROGRAMS <count>"; exits non-zero when a
# program fails or none is found.

import re
import subprocess
import sys


def main():
    clang, workdir = sys.argv[1:3]
    parts = re.split(r"^// gpu\.(?:binary|module) @(\w+)\n", sys.stdin.read(),
                     flags=re.M)
    programs = list(zip(parts[1::2], parts[2::2]))
    if not programs:
        print("no OpenCL C program found")
        return 1
    status = 0
    for n, (name, text) in enumerate(programs):
        path = f"{workdir}/{name}.cl"
        with open(path, "w") as f:
            f.write(text)
        result = subprocess.run(
            [clang, "-cc1", "-triple", "spir64", "-cl-std=CL1.2",
             "-finclude-default-header", "-fdeclare-opencl-builtins",
             "-fsyntax-only", "-Werror", path],
            capture_output=True, text=True)
        if result.returncode == 0:
            print(f"OK {n} {name}")
        else:
            print(f"ERROR {n} {name}:\n{result.stdout}{result.stderr}")
            status = 1
    print(f"PROGRAMS {len(programs)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
