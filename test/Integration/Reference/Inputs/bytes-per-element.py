# Measures the memory plaidml-run --device reference takes per element of an
# si8 identity function: the peak RSS of a run on 2^26 elements minus that
# of a run on 2 elements, divided by 2^26 (memory.test). Prints it, and
# exits non-zero when it is above the limit given as the first argument.
# The second argument is the plaidml-run to measure.
import os
import resource
import subprocess
import sys
import tempfile

limit = float(sys.argv[1])
plaidml_run = sys.argv[2]
big = 1 << 26


def peak_kib(elements, directory):
    path = os.path.join(directory, "identity-%d.mlir" % elements)
    with open(path, "w") as f:
        f.write("func.func @f(%%a: tensor<%dxsi8>) -> tensor<%dxsi8> {\n"
                "  return %%a : tensor<%dxsi8>\n}\n" % (elements, elements, elements))
    subprocess.run([plaidml_run, path, "--device", "reference", "--random-inputs"],
                   check=True, stdout=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


with tempfile.TemporaryDirectory() as directory:
    small = peak_kib(2, directory)
    large = peak_kib(big, directory)
per_element = (large - small) * 1024.0 / big
print("bytes per element: %.1f" % per_element)
sys.exit(0 if per_element <= limit else 1)
