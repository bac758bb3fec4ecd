# -*- Python -*-
# lit configuration of the PlaidML regression suite.

import os
import platform

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PLAIDML"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.plaidml_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%plaidml_src_root", config.plaidml_src_root))
config.substitutions.append(("%plaidml_obj_root", config.plaidml_obj_root))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [
    config.plaidml_tools_dir,
    os.path.join(config.plaidml_obj_root, "test", "bin"),
    config.llvm_tools_dir,
]
tools = [
    "call-entry",
    "plaidml-compile",
    "plaidml-opt",
    "plaidml-run",
    "plaidml-translate",
    "llvm-nm",
    "llvm-readelf",
    "llvm-strings",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Tests that pin x86 CPU names and feature lists.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("host-x86_64")
