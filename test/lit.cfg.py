# -*- Python -*-
# lit configuration of the PlaidML regression suite.

import os
import platform
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PLAIDML"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.plaidml_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

# Two suites from one tree (test/CMakeLists.txt): `fast` (IR in, IR or a
# diagnostic out, small compiles) and `integration` (the directories whose
# tests execute compiled programs on every device). Unset: every test.
_integration_dirs = ["Integration", "Networks", "Op"]
_suite = lit_config.params.get("plaidml_suite", "all")
if _suite == "fast":
    config.excludes += _integration_dirs
elif _suite == "integration":
    config.excludes += [
        d for d in os.listdir(config.test_source_root)
        if os.path.isdir(os.path.join(config.test_source_root, d))
        and d not in _integration_dirs]
elif _suite != "all":
    lit_config.fatal("plaidml_suite must be fast, integration or all, not '%s'" % _suite)

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%plaidml_src_root", config.plaidml_src_root))
config.substitutions.append(("%plaidml_obj_root", config.plaidml_obj_root))
# Hand-written artifacts built for the runtime's unit tests.
config.substitutions.append(
    ("%fake_artifacts", os.path.join(config.plaidml_obj_root, "test", "Runtime", "Inputs")))
# lit runs under Debian's python3, which has NumPy (python3-numpy).
config.substitutions.append(("%python", sys.executable))
# ONNX models for the importer's tests are protobuf text in the test files
# (every other line a `#` comment), encoded by protoc with libonnx-dev's
# schema.
config.substitutions.append(
    ("%onnx-encode",
     "protoc -I/usr/include --encode=onnx.ModelProto onnx/onnx.proto"))

llvm_config.use_default_substitutions()

# plaidml-run's compile cache lives in the build tree, not in ~/.cache.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.plaidml_obj_root, "test", "cache")
# Tests pick devices explicitly; a developer's default must not leak in.
config.environment.pop("PLAIDML_DEVICE", None)

# The runtime libraries mlir-runner loads for printMemref* and friends, from
# the LLVM installation whose tools run the tests.
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(("%mlir_runner_utils",
                             os.path.join(llvm_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(("%mlir_c_runner_utils",
                             os.path.join(llvm_lib_dir, "libmlir_c_runner_utils.so")))
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [
    config.plaidml_tools_dir,
    os.path.join(config.plaidml_obj_root, "test", "bin"),
    config.llvm_tools_dir,
]
# The sanitizer build (test/Sanitize) runs part of the suite with its
# sanitized plaidml-run and plaidml-translate found first; the sanitizers'
# settings come from the environment (RunSanitized.cmake sets them).
sanitized_tools = lit_config.params.get("plaidml_sanitized_tools")
if sanitized_tools:
    tool_dirs.insert(0, sanitized_tools)
    config.available_features.add("sanitized")
    for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if name in os.environ:
            config.environment[name] = os.environ[name]
tools = [
    "capi-program",
    "capi-network",
    "call-entry",
    "opencl-kernel-runner",
    "plaidbench",
    "plaidml-compile",
    "plaidml-net",
    "plaidml-op-test",
    "plaidml-opt",
    "plaidml-import-onnx",
    "plaidml-onnx-test",
    "plaidml-run",
    "plaidml-setup",
    "plaidml-translate",
    "llvm-nm",
    "llvm-readelf",
    "llvm-strings",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# clang of the LLVM installation compiles generated OpenCL C for spir64
# (opencl-c-check.py): a syntax and type check that needs no OpenCL driver.
clang = os.path.join(config.llvm_tools_dir, "clang")
if os.path.exists(clang):
    config.available_features.add("clang")
    config.substitutions.append(("%clang", clang))

# Tests that pin x86 CPU names and feature lists.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("host-x86_64")

# GPU tests run on the first device of their kind: `REQUIRES: vulkan` /
# `%if vulkan %{ ... %}` on vulkan:0 (lavapipe in CI), `REQUIRES: opencl` on
# opencl:0 (PoCL in CI), asked with `plaidml-run --check-device` (its exit
# status, not the text of a listing). With PLAIDML_REQUIRE_VULKAN=1 or
# PLAIDML_REQUIRE_OPENCL=1 (set by .ci/run) a missing device is an error,
# not a silent skip. `opencl-spirv`: opencl:0 has the feature `spirv`, so
# the runtime builds the SPIR-V of kernel bundles there (PoCL in CI does
# not).
def _check_device(name, *requires):
    import subprocess
    run = os.path.join(config.plaidml_tools_dir, "plaidml-run")
    args = [run, "--check-device", name]
    for feature in requires:
        args += ["--require", feature]
    try:
        return subprocess.run(args, capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False

if _check_device("vulkan:0"):
    config.available_features.add("vulkan")
elif os.environ.get("PLAIDML_REQUIRE_VULKAN") == "1":
    lit_config.fatal("PLAIDML_REQUIRE_VULKAN=1 but plaidml-run --check-device "
                     "vulkan:0 fails (install mesa-vulkan-drivers)")
if _check_device("opencl:0"):
    config.available_features.add("opencl")
    if _check_device("opencl:0", "spirv"):
        config.available_features.add("opencl-spirv")
elif os.environ.get("PLAIDML_REQUIRE_OPENCL") == "1":
    lit_config.fatal("PLAIDML_REQUIRE_OPENCL=1 but plaidml-run --check-device "
                     "opencl:0 fails (install pocl-opencl-icd)")
