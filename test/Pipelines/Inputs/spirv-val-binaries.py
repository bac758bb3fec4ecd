# Reads MLIR with gpu.binary ops (after gpu-module-to-binary, or
# plaidml-gpu-module-to-opencl-bundle) on stdin, decodes the SPIR-V blob of
# every #gpu.object and runs spirv-val on it. A kernel bundle (docs/ABI.md
# section 6) is unpacked here after the documented layout, independently of
# the runtime's reader: its SPIR-V entry is validated, and a bundle without
# one prints "NO-SPIRV <n>: <its note>".
# Usage: spirv-val-binaries.py SPIRV_VAL TARGET_ENV WORKDIR
# Prints "VALID <n>" for the n-th blob spirv-val accepts and exits non-zero
# when one is rejected or none is found.

import re
import struct
import subprocess
import sys

KINDS = {1: "spirv", 2: "opencl-c", 3: "name", 4: "note"}


def unbundle(blob):
    """The entries of a kernel bundle by kind name, checking the layout."""
    magic, version, count = struct.unpack_from("<4sII", blob, 0)
    assert magic == b"\x7fPKB" and version == 1, (magic, version)
    table_end = 12 + 12 * count
    entries = {}
    for i in range(count):
        kind, offset, size = struct.unpack_from("<III", blob, 12 + 12 * i)
        assert offset % 4 == 0 and offset >= table_end, (i, offset)
        assert offset + size <= len(blob), (i, offset, size, len(blob))
        assert KINDS[kind] not in entries, kind
        entries[KINDS[kind]] = blob[offset:offset + size]
    assert "spirv" in entries or "opencl-c" in entries
    return entries


def decode(text, start):
    """Decodes the MLIR string literal whose opening quote is at start;
    returns its bytes and the index just past its closing quote."""
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
    return bytes(out), i + 1


def object_bytes(text, start):
    """The bytes of the #gpu.object starting at start: its last string
    literal, the one closed by '>' (properties hold strings too)."""
    i = start
    while True:
        blob, i = decode(text, text.index('"', i))
        if text[i] == ">":
            return blob


def main():
    spirv_val, target_env, workdir = sys.argv[1:4]
    text = sys.stdin.read()
    blobs = []
    for match in re.finditer(r"#gpu\.object<", text):
        blobs.append(object_bytes(text, match.end()))
    if not blobs:
        print("no #gpu.object found")
        return 1
    status = 0
    for n, blob in enumerate(blobs):
        if blob.startswith(b"\x7fPKB"):
            entries = unbundle(blob)
            if "spirv" not in entries:
                note = entries.get("note", b"").decode()
                print(f"NO-SPIRV {n}: {note}")
                continue
            blob = entries["spirv"]
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
