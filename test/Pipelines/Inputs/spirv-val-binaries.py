# Reads MLIR with gpu.binary ops (after gpu-module-to-binary) on stdin, decodes
# the SPIR-V blob of every #gpu.object and runs spirv-val on it.
# Usage: spirv-val-binaries.py SPIRV_VAL TARGET_ENV WORKDIR
# Prints "VALID <n>" for the n-th blob spirv-val accepts and exits non-zero
# when one is rejected or none is found.

import re
import subprocess
import sys


def decode(text, start):
    """Decodes the MLIR string literal whose opening quote is at start."""
    out = bytearray()
    i = start + 1
    while text[i] != '"':
        if text[i] == "\\":
            if text[i + 1] == "\\":
                out.append(0x5C)
                i += 2
            else:
                out.append(int(text[i + 1 : i + 3], 16))
                i += 3
        else:
            out.extend(text[i].encode("utf-8"))
            i += 1
    return bytes(out)


def main():
    spirv_val, target_env, workdir = sys.argv[1:4]
    text = sys.stdin.read()
    blobs = []
    for match in re.finditer(r"#gpu\.object<", text):
        quote = text.index('"', match.end())
        blobs.append(decode(text, quote))
    if not blobs:
        print("no #gpu.object found")
        return 1
    status = 0
    for n, blob in enumerate(blobs):
        path = f"{workdir}/kernel{n}.spv"
        with open(path, "wb") as f:
            f.write(blob)
        result = subprocess.run([spirv_val, "--target-env", target_env, path],
                                capture_output=True, text=True)
        if result.returncode == 0:
            print(f"VALID {n}")
        else:
            print(f"INVALID {n}: {result.stdout}{result.stderr}")
            status = 1
    print(f"KERNELS {len(blobs)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
