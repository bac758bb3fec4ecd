# Tampers with the one entry of a compile cache directory, for
# cpu-cache-integrity.test: `truncate DIR`, `flip DIR` (one bit in the
# middle), `swap DIR OTHER` (OTHER's artifact under DIR's name),
# `swap-record DIR OTHER` (OTHER's artifact and record under DIR's names),
# `drop-record DIR`.
import glob
import os
import shutil
import sys


def entry(directory):
    (path,) = glob.glob(os.path.join(directory, "*.so"))
    return path, path[: -len(".so")] + ".meta"


action, directory = sys.argv[1], sys.argv[2]
so, meta = entry(directory)
if action == "truncate":
    os.truncate(so, os.path.getsize(so) // 2)
elif action == "flip":
    with open(so, "r+b") as f:
        f.seek(os.path.getsize(so) // 2)
        byte = f.read(1)[0]
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte ^ 0x10]))
elif action in ("swap", "swap-record"):
    other_so, other_meta = entry(sys.argv[3])
    shutil.copyfile(other_so, so)
    if action == "swap-record":
        shutil.copyfile(other_meta, meta)
elif action == "drop-record":
    os.remove(meta)
else:
    sys.exit("unknown action " + action)
