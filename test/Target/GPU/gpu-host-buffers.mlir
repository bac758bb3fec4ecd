// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-gpu-host-buffers | FileCheck %s

// The host code's buffers are device buffers: an intermediate becomes
// gpu.alloc/gpu.dealloc, a constant a kernel reads is copied into a device
// buffer first and freed before the return.
// CHECK-LABEL: func.func @host
// CHECK: %[[TMP:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: %[[G:.*]] = memref.get_global @cst : memref<4xf32>
// CHECK-NEXT: %[[COPY:.*]] = gpu.alloc () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy %[[COPY]], %[[G]] : memref<4xf32>, memref<4xf32>
// CHECK: gpu.launch_func @kernels::@k {{.*}} args(%[[COPY]] : memref<4xf32>, %[[TMP]] : memref<4xf32>)
// CHECK: gpu.launch_func @kernels::@k {{.*}} args(%[[TMP]] : memref<4xf32>, %{{.*}} : memref<4xf32>)
// CHECK: gpu.dealloc %[[TMP]] : memref<4xf32>
// CHECK-NEXT: gpu.dealloc %[[COPY]] : memref<4xf32>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @cpu_only
// CHECK-NEXT: memref.alloc() : memref<4xf32>
module attributes {gpu.container_module} {
  memref.global "private" constant @cst : memref<4xf32> = dense<1.0>
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>, %b: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %tmp = memref.alloc() : memref<4xf32>
    %g = memref.get_global @cst : memref<4xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%g : memref<4xf32>, %tmp : memref<4xf32>)
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%tmp : memref<4xf32>, %out : memref<4xf32>)
    memref.dealloc %tmp : memref<4xf32>
    return
  }
  // Not host code (no launch): left alone.
  func.func @cpu_only() {
    %a = memref.alloc() : memref<4xf32>
    return
  }
}

// -----

// A constant a kernel reads through a vector view (the wide staging of
// plaidml-gpu-stage-contraction, an unrealized cast) is copied too, and the
// view takes the copy.
// CHECK-LABEL: func.func @view
// CHECK: %[[G:.*]] = memref.get_global @w : memref<8x8xf32>
// CHECK-NEXT: %[[COPY:.*]] = gpu.alloc () : memref<8x8xf32>
// CHECK-NEXT: gpu.memcpy %[[COPY]], %[[G]] : memref<8x8xf32>, memref<8x8xf32>
// CHECK-NEXT: %[[V:.*]] = builtin.unrealized_conversion_cast %[[COPY]] : memref<8x8xf32> to memref<8x2xvector<4xf32>>
// CHECK: gpu.launch_func @kernels::@k {{.*}} args(%[[V]] : memref<8x2xvector<4xf32>>, %{{.*}} : memref<8x8xf32>)
// CHECK: gpu.dealloc %[[COPY]] : memref<8x8xf32>
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  memref.global "private" constant @w : memref<8x8xf32> = dense<1.0>
  gpu.module @kernels {
    gpu.func @k(%a: memref<8x2xvector<4xf32>>, %b: memref<8x8xf32>) kernel {
      gpu.return
    }
  }
  func.func @view(%out: memref<8x8xf32>) {
    %c1 = arith.constant 1 : index
    %g = memref.get_global @w : memref<8x8xf32>
    %v = builtin.unrealized_conversion_cast %g : memref<8x8xf32> to memref<8x2xvector<4xf32>>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%v : memref<8x2xvector<4xf32>>, %out : memref<8x8xf32>)
    return
  }
}

// -----

// Only functions that launch kernels are host code; the host may not read
// a buffer there: it holds a device handle.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @reads(%a: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<4xf32>)
    // expected-error @+1 {{host code of @reads accesses buffer contents with 'memref.load', but its buffers live on the device; only kernels may read or write them}}
    %x = memref.load %a[%c0] : memref<4xf32>
    return %x : f32
  }
}

// -----

// A layout the device allocator cannot serve.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32, strided<[2]>>) kernel {
      gpu.return
    }
  }
  func.func @strided() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{host buffer of type 'memref<4xf32, strided<[2]>>' has a layout or memory space the device allocator does not support}}
    %a = memref.alloc() : memref<4xf32, strided<[2]>>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<4xf32, strided<[2]>>)
    return
  }
}
