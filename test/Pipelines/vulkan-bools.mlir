// RUN: rm -rf %t && mkdir -p %t
// RUN: plaidml-opt %s -plaidml-vulkan-lowering-pipeline="host-to-llvm=1 caps=Int8,StorageBuffer8BitAccess exts=SPV_KHR_8bit_storage" \
// RUN:   -o %t/bools.mlir
// RUN: %python %S/Inputs/spirv-val-binaries.py spirv-val vulkan1.1 %t \
// RUN:   < %t/bools.mlir | FileCheck %s --check-prefix=VAL
// RUN: plaidml-translate --mlir-to-llvmir %t/bools.mlir | FileCheck %s

// An i1 buffer (a tile.select mask) is bytes in the kernel and on the host:
// plaidml-gpu-launch-bools-as-bytes lets gpu-to-llvm size it, 1 byte per
// element.
// VAL: VALID 0
// VAL-NEXT: KERNELS 1
// CHECK-LABEL: define void @mask(ptr %0, ptr %1)
// CHECK:         store i64 3, ptr
// CHECK:         store i64 3, ptr
// CHECK:         call void @mgpuLaunchKernel(ptr %{{.*}}, i64 1, i64 1, i64 1, i64 4, i64 1, i64 1, i32 0, ptr %{{.*}}, ptr %{{.*}}, ptr null, i64 4)
func.func @mask(%a: memref<3xi1>, %o: memref<3xi8>) {
  affine.parallel (%i) = (0) to (3) {
    %x = affine.load %a[%i] : memref<3xi1>
    %y = arith.extui %x : i1 to i8
    affine.store %y, %o[%i] : memref<3xi8>
  }
  return
}
