// RUN: plaidml-opt %s -plaidml-attach-target | FileCheck %s --check-prefix=CPU
// RUN: plaidml-opt %s -plaidml-attach-target="device=vulkan caps=Float64,Int64 exts=SPV_KHR_8bit_storage max-workgroup-size=64 label={vulkan:0 (llvmpipe)}" \
// RUN:   | FileCheck %s --check-prefix=VULKAN
// RUN: plaidml-opt %s -plaidml-attach-target="device=opencl triple=aarch64-unknown-linux-gnu exts=cl_khr_fp64" \
// RUN:   | FileCheck %s --check-prefix=ARM
// RUN: plaidml-opt %s -plaidml-attach-target="device=vulkan cpu=native" \
// RUN:   | FileCheck %s --check-prefix=NATIVE
// RUN: not plaidml-opt %s -plaidml-attach-target="device=metal" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KIND
// RUN: not plaidml-opt %s -plaidml-attach-target="device=cpu caps=Float64" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CAPS
// RUN: not plaidml-opt %s -plaidml-attach-target="device=vulkan max-workgroup-size=0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SIZE
// REQUIRES: host-x86_64

// A CPU artifact is for the host CPU by default.
// CPU: module attributes {plaidml.target = #plaidml.target<device = cpu>}

// The host code of a GPU artifact defaults to the portable x86-64 baseline
// (not this machine's CPU), so the artifact moves between machines.
// VULKAN: module attributes {plaidml.target = #plaidml.target<device = vulkan, cpu = "x86-64", caps = ["Float64", "Int64"], exts = ["SPV_KHR_8bit_storage"], max_workgroup_size = 64, label = "vulkan:0 (llvmpipe)">}

// Another architecture's baseline is LLVM's generic CPU.
// ARM: #plaidml.target<device = opencl, triple = "aarch64-unknown-linux-gnu", cpu = "generic", exts = ["cl_khr_fp64"]>

// Asking for this machine's CPU is still possible.
// NATIVE: #plaidml.target<device = vulkan>

// KIND: error: unknown device kind 'metal' (expected cpu, vulkan or opencl)
// CAPS: error: a cpu target has no 'caps' or 'exts'
// SIZE: error: max_workgroup_size must be in [1, 1024], not 0

// A target already there is replaced.
module attributes {plaidml.target = #plaidml.target<device = opencl>} {
}
