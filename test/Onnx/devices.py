# ===- devices.py - Which optional devices the ONNX tests run on ----------===#
#
# The GPU devices a test asks for (vulkan:0, opencl:0) may be missing on a
# developer's machine: they are skipped there, with a line saying so. CI
# sets PLAIDML_REQUIRE_VULKAN=1 / PLAIDML_REQUIRE_OPENCL=1 (.ci/run), and a
# required device that is missing is an error, as in test/lit.cfg.py.
#
# ===----------------------------------------------------------------------===#

import os
import subprocess


def present_devices(run_tool, devices, who):
    """The devices of `devices` that `run_tool --check-device` accepts, or
    None when a missing one is required (after printing why)."""
    present = []
    for d in devices:
        ok = subprocess.run([run_tool, "--check-device", d],
                            capture_output=True).returncode == 0
        kind = d.split(":")[0].upper()
        if ok:
            present.append(d)
        elif os.environ.get("PLAIDML_REQUIRE_" + kind) == "1":
            print("%s: %s is required but not there" % (who, d))
            return None
        else:
            print("%s: %s is not there; skipped" % (who, d))
    return present
