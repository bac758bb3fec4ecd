#!/usr/bin/env bash
#===- scripts/install-deps.sh - Install the build and test dependencies ---===#
#
# Installs, from Debian 12's own archive (LLVM/MLIR 22 come from
# bookworm-security), everything PlaidML needs to configure, build, test and
# later run its Vulkan (lavapipe) and OpenCL (PoCL) backends on a fresh
# machine, then the pinned Python packages into .venv (setup-venv.sh). Idempotent: when dpkg already reports every package installed it
# touches nothing, so `make check` can call it on every run. Runs as root, or
# through sudo otherwise.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

# Toolchain, LLVM/MLIR 22 and the test tools (lit, FileCheck: llvm-22-tools).
PACKAGES=(
  ca-certificates cmake ninja-build git python3 build-essential
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  clang-22 lld-22 clang-format-22 clang-tidy-22 libomp-22-dev
  # compiler-rt builtins: plaidml-compile links them into CPU artifacts for
  # the f16/bf16 conversions Debian 12's libgcc lacks (__truncsfbf2).
  libclang-rt-22-dev
  # Libraries LLVMConfig.cmake looks up (find_package) and LLVMExports.cmake
  # names in INTERFACE_LINK_LIBRARIES: FFI, LibEdit, ZLIB, zstd, LibXml2,
  # CURL, ncurses (terminfo), z3.
  libffi-dev libedit-dev zlib1g-dev libzstd-dev libxml2-dev
  libcurl4-openssl-dev libncurses-dev libz3-dev
  # Tests: GoogleTest for the runtime's unit tests; NumPy for Debian's
  # python3 (the one lit runs under) to check results and read .npy files.
  libgtest-dev python3-numpy
  # The peers of the CPU benchmark (bench/cpu): OpenBLAS for SGEMM, oneDNN
  # for convolutions.
  libopenblas-dev libdnnl-dev
  # GPU-on-the-CPU backends used by later issues: SPIR-V tools, Vulkan
  # loader + lavapipe, OpenCL ICD loader + PoCL.
  spirv-tools libvulkan-dev mesa-vulkan-drivers
  ocl-icd-opencl-dev pocl-opencl-icd
  # ONNX import: the protobuf schema and parser of ONNX 1.12 (libonnx-dev)
  # and protobuf; python3-venv for the project's virtual environment.
  libonnx-dev libprotobuf-dev protobuf-compiler python3-venv
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "ii " ]] || missing+=("$pkg")
done

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exec "$HERE/setup-venv.sh"
fi

if [[ $(id -u) -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: must run as root (or have sudo) to install: ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null

# The Python packages (pinned) live in the repository's .venv.
exec "$HERE/setup-venv.sh"
