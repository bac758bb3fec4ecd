#!/usr/bin/env python3
# ===- check_cookbook.py - Execute the cookbook of docs/TileLanguage.md ---===#
#
# Extracts every ```tile block of the cookbook (its first line is
# "# cookbook: NAME"), runs it with plaidml-run on each device on seeded
# NumPy inputs, and compares every output with a NumPy computation written
# independently here. A block without a model, or a model without a block,
# is a failure too, so the page and the test cannot drift apart. Ends with
# "N passed, M failed".
#
# ===----------------------------------------------------------------------===#

import argparse
import os
import re
import subprocess
import sys

import numpy as np

F32 = dict(rtol=1e-5, atol=1e-5)
EXACT = dict(rtol=0, atol=0)


def conv_nhwc(x, k, stride, dilation, pad):
    """Plain loops over a zero-padded input: out[n,x,y,co]."""
    n, h, w, ci = x.shape
    kh, kw, _, co = k.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    oh = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (w + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, co))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i * dilation: i * dilation + stride * (oh - 1) + 1: stride,
                       j * dilation: j * dilation + stride * (ow - 1) + 1: stride, :]
            out += np.einsum("nxyc,cd->nxyd", patch, k[i, j].astype(np.float64))
    return out


def model_matmul(rng):
    a = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal((7, 3)).astype(np.float32)
    return {"A": a, "B": b}, {"C": (a.astype(np.float64) @ b, F32)}


def model_conv_strided_dilated(rng):
    i = rng.standard_normal((1, 11, 12, 3)).astype(np.float32)
    k = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    return {"I": i, "K": k}, {"O": (conv_nhwc(i, k, 2, 2, 0), F32)}


def model_conv_same(rng):
    i = rng.standard_normal((2, 6, 7, 3)).astype(np.float32)
    k = rng.standard_normal((3, 3, 3, 5)).astype(np.float32)
    return {"I": i, "K": k}, {"O": (conv_nhwc(i, k, 1, 1, 1), F32)}


def model_depthwise(rng):
    i = rng.standard_normal((1, 6, 5, 4)).astype(np.float32)
    k = rng.standard_normal((3, 3, 4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    o = np.zeros((1, 4, 3, 4))
    for x in range(4):
        for y in range(3):
            o[:, x, y, :] = (i[:, x:x + 3, y:y + 3, :] * k).sum(axis=(1, 2))
    return {"I": i, "K": k, "B": b}, {"R": (np.maximum(o + b, 0), F32)}


def model_pooling(rng):
    i = rng.standard_normal((2, 7, 6, 3)).astype(np.float32)
    win = i[:, :6, :6, :].reshape(2, 3, 2, 3, 2, 3)
    return {"I": i}, {"MaxPool": (win.max(axis=(2, 4)), EXACT),
                      "AvgPool": (win.astype(np.float64).mean(axis=(2, 4)), F32)}


def model_softmax(rng):
    x = (rng.standard_normal((4, 6)) * 3 + 50).astype(np.float32)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    return {"X": x}, {"Y": (e / e.sum(axis=1, keepdims=True), F32)}


def model_layer_norm(rng):
    x = (rng.standard_normal((3, 8)) * 2 + 1).astype(np.float32)
    g = rng.standard_normal(8).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + 1e-5) * g + b
    return {"X": x, "G": g, "B": b}, {"Y": (y, dict(rtol=1e-4, atol=1e-4))}


def model_cumsum(rng):
    i = rng.integers(-50, 50, size=9).astype(np.int32)
    return {"I": i}, {"O": (np.cumsum(i).astype(np.int32), EXACT)}


def model_argmax(rng):
    x = rng.integers(0, 5, size=(4, 7)).astype(np.float32)  # ties on purpose
    last = x.shape[1] - 1 - np.argmax(x[:, ::-1], axis=1)   # last maximal index
    return {"X": x}, {"A": (last.astype(np.int32), EXACT)}


def model_transpose(rng):
    a = rng.integers(-100, 100, size=(3, 5)).astype(np.int16)
    return {"A": a}, {"T": (a.T.copy(), EXACT)}


def model_one_hot(rng):
    labels = rng.integers(0, 4, size=6).astype(np.int32)
    classes = np.zeros(4, dtype=np.float32)  # only its shape matters
    return ({"Labels": labels, "Classes": classes},
            {"O": (labels[:, None] == np.arange(4)[None, :], EXACT)})


def model_embedding(rng):
    table = rng.standard_normal((10, 4)).astype(np.float32)
    ids = np.array([3, 0, 9, 3, 12, -1], dtype=np.int32)  # 12 and -1 clamp
    return ({"Table": table, "Ids": ids},
            {"O": (table[np.clip(ids, 0, 9)], EXACT)})


def model_sort(rng):
    x = rng.integers(0, 4, size=(5, 6)).astype(np.float32)  # ties on purpose
    v = rng.standard_normal(9).astype(np.float32)
    # Stable descending order: the stable ascending order of the negation.
    return ({"X": x, "V": v},
            {"Up": (np.argsort(x, axis=1, kind="stable").astype(np.int32), EXACT),
             "Down": (np.argsort(-x, axis=0, kind="stable").astype(np.int32), EXACT),
             "Sorted": (np.sort(v), EXACT)})


def philox4x32_10(counter, key):
    """Random123's philox4x32 with 10 rounds, on Python integers."""
    x, (k0, k1) = list(counter), key
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0, p1 = 0xD2511F53 * x[0], 0xCD9E8D57 * x[2]
        x = [(p1 >> 32) ^ x[1] ^ k0, p1 & 0xFFFFFFFF,
             (p0 >> 32) ^ x[3] ^ k1, p0 & 0xFFFFFFFF]
    return x


def philox_stream(state, count):
    """The words of tile.prng for `count` elements and the next state."""
    key = [int(w) for w in state[:2]]
    base = sum(int(w) << (32 * i) for i, w in enumerate(state[2:]))
    blocks = (count + 3) // 4
    words = []
    for b in range(blocks):
        c = (base + b) % (1 << 128)
        words += philox4x32_10([(c >> (32 * i)) & 0xFFFFFFFF for i in range(4)], key)
    c = (base + blocks) % (1 << 128)
    return (np.array(words[:count], dtype=np.uint64),
            np.array(key + [(c >> (32 * i)) & 0xFFFFFFFF for i in range(4)],
                     dtype=np.uint32))


def model_dropout(rng):
    x = rng.standard_normal((3, 7)).astype(np.float32)
    # A counter near the end of its low word, so the blocks carry.
    s = np.array([2024, 7, 0xFFFFFFFE, 5, 0, 0], dtype=np.uint32)
    words, nxt = philox_stream(s, x.size)
    r = ((words >> 8).astype(np.float64) / 2.0**24).reshape(x.shape)
    y = np.where(r < 0.75, x.astype(np.float64) / 0.75, 0.0)
    return {"X": x, "S": s}, {"Y": (y, F32), "Next": (nxt, EXACT)}


MODELS = {name[len("model_"):]: fn for name, fn in globals().items()
          if name.startswith("model_")}


def extract_blocks(markdown):
    blocks = {}
    for body in re.findall(r"```tile\n(.*?)```", markdown, flags=re.S):
        m = re.match(r"# cookbook: (\w+)\n", body)
        if m:
            blocks[m.group(1)] = body
    return blocks


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plaidml-run", required=True)
    parser.add_argument("--doc", required=True)
    parser.add_argument("--devices", default="reference,cpu")
    parser.add_argument("--work-dir", required=True)
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    blocks = extract_blocks(open(args.doc).read())

    passed = failed = 0
    for name in sorted(set(blocks) | set(MODELS)):
        if name not in blocks or name not in MODELS:
            print(f"FAIL {name}: " + ("no model in check_cookbook.py" if name in blocks
                                      else "no '# cookbook: " + name + "' block in the doc"))
            failed += 1
            continue
        program = os.path.join(args.work_dir, f"{name}.tile")
        with open(program, "w") as f:
            f.write(blocks[name])
        inputs, expected = MODELS[name](np.random.default_rng(7))
        flags = []
        for key, value in inputs.items():
            path = os.path.join(args.work_dir, f"{name}.{key}.npy")
            np.save(path, value)
            flags += ["--input", f"{key}={path}"]
        for device in args.devices.split(","):
            out = os.path.join(args.work_dir, device, name)
            r = subprocess.run([args.plaidml_run, program, "--device", device,
                                "--output-dir", out] + flags,
                               capture_output=True, text=True)
            problems = []
            if r.returncode != 0:
                problems.append(r.stderr.strip())
            else:
                for key, (want, tol) in expected.items():
                    got = np.load(os.path.join(out, f"{key}.npy"))
                    if got.shape != want.shape:
                        problems.append(f"{key}: shape {got.shape}, expected {want.shape}")
                    elif not np.allclose(got, want, **tol):
                        bad = tuple(int(i) for i in np.argwhere(
                            ~np.isclose(got, want, **tol))[0])
                        problems.append(f"{key}{list(bad)}: got {got[bad]!r}, "
                                        f"expected {want[bad]!r}")
            if problems:
                failed += 1
                print(f"FAIL {name} on {device}: {'; '.join(problems)}")
            else:
                passed += 1
                print(f"PASS {name} on {device}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
