// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-gpu-set-entry-point-abi | FileCheck %s

// The launch's constant block sizes become the kernel's entry point ABI,
// which convert-gpu-to-spirv turns into its LocalSize.
// CHECK: gpu.func @k(%{{.*}}: memref<4xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 2, 1]>}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1)
        args(%a : memref<4xf32>)
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c4, %c2, %c1)
        args(%a : memref<4xf32>)
    return
  }
}

// -----

// One kernel, two workgroup sizes: SPIR-V has one LocalSize per entry point.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%a : memref<4xf32>)
    // expected-error @+1 {{launches k with another workgroup size than #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<4xf32>)
    return
  }
}

// -----

// Block sizes known only at run time cannot become a LocalSize.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%a: memref<4xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{needs constant block sizes for Vulkan}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%a : memref<4xf32>)
    return
  }
}
