// RUN: plaidml-opt %s -split-input-file \
// RUN:   -plaidml-cpu-lowering-pipeline="cpu=x86-64 triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s
// RUN: plaidml-opt %s -split-input-file \
// RUN:   -plaidml-cpu-lowering-pipeline="cpu=x86-64 triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefix=NONE
// REQUIRES: host-x86_64

// The lowering half of the CPU pipeline on hand-written ABI-form functions
// (docs/ABI.md section 1): everything reaches the LLVM dialect, memrefs
// become bare pointers, entry points get wrappers and the module a manifest.

// No op of the input dialects survives. (Attributes may: arith-to-llvm
// copies `fastmath = #arith.fastmath<contract>` from the extf/truncf that
// math-extend-to-supported-types creates onto llvm.fpext/fptrunc; LLVM IR
// translation ignores it.)
// NONE-NOT: {{[^#]}}affine.
// NONE-NOT: {{[^#]}}memref.
// NONE-NOT: func.func
// NONE-NOT: {{[^#]}}arith.
// NONE-NOT: {{[^#]}}math.
// NONE-NOT: {{[^#]}}scf.
// NONE-NOT: {{[^#.]}}cf.
// NONE-NOT: unrealized_conversion_cast

// CHECK-LABEL: module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu", plaidml.target = #plaidml.target<device = cpu, triple = "x86_64-unknown-linux-gnu", cpu = "x86-64">}
// CHECK-NOT:  llvm.func @malloc
// CHECK:      llvm.func @erff(f32) -> f32
// CHECK:      llvm.func @_plaidml_entry_scale(%[[BUFS:.*]]: !llvm.ptr) {
// CHECK-NEXT:   %[[S0:.*]] = llvm.getelementptr inbounds %[[BUFS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:   %[[B0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:   %[[S1:.*]] = llvm.getelementptr inbounds %[[BUFS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:   %[[B1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:   %[[S2:.*]] = llvm.getelementptr inbounds %[[BUFS]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:   %[[B2:.*]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:   %[[S3:.*]] = llvm.getelementptr inbounds %[[BUFS]][3] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:   %[[B3:.*]] = llvm.load %[[S3]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:   llvm.call @scale(%[[B0]], %[[B1]], %[[B2]], %[[B3]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:   llvm.return
// Bare pointers: one !llvm.ptr per memref, no descriptors. The temporary
// lives in the workspace, the last pointer (plaidml-cpu-plan-workspace):
// no malloc, no free.
// CHECK:      llvm.func internal @scale(%[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr, %[[C:.*]]: !llvm.ptr, %[[W:.*]]: !llvm.ptr) {
// CHECK-NOT:    llvm.call @malloc
// CHECK:        llvm.call @scale_nest0(
// CHECK:        llvm.intr.memcpy
// CHECK-NOT:    llvm.call @free
// The loop nest is a function of its own (plaidml-cpu-outline-nests),
// internal and never inlined.
// CHECK:      llvm.func internal @scale_nest0(%{{.*}}: !llvm.ptr, %{{.*}}: f32, %{{.*}}: !llvm.ptr) attributes {passthrough = ["noinline"]
// CHECK:        llvm.call @erff
// CHECK:      llvm.mlir.global external constant @plaidml_manifest("plaidml-artifact 1\0Acompiler 0.1.0\0Adevice cpu\0Atriple x86_64-unknown-linux-gnu\0Acpu x86-64\0Afeatures +64bit,+cmov,+cx8,+fxsr,+mmx,+sse,+sse2\0Aentry scale _plaidml_entry_scale\0Aworkspace 64\0Ainput arg0 4xf32\0Ainput arg1 f32\0Aoutput result0 4xf32\0Aend\0A\00") {addr_space = 0 : i32}
func.func @scale(%a: memref<4xf32>, %s: memref<f32>, %out: memref<4xf32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>, tensor<f32>],
                plaidml.outputs = [tensor<4xf32>]} {
  %tmp = memref.alloc() : memref<4xf32>
  %k = affine.load %s[] : memref<f32>
  affine.parallel (%i) = (0) to (4) {
    %x = affine.load %a[%i] : memref<4xf32>
    %y = arith.mulf %x, %k : f32
    %z = math.erf %y : f32
    affine.store %z, %tmp[%i] : memref<4xf32>
  }
  memref.copy %tmp, %out : memref<4xf32> to memref<4xf32>
  memref.dealloc %tmp : memref<4xf32>
  return
}

// -----

// What convert-tile-to-affine also emits: integer powers (outlined by
// convert-math-to-funcs), f16 math (computed in f32), scf.if, affine.if,
// affine.for with iter_args, constant globals.
// CHECK-LABEL: module attributes
// CHECK:      llvm.func @_plaidml_entry_mixed(
// CHECK:      llvm.func internal @mixed(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
// CHECK:        llvm.call @mixed_nest0(
// CHECK:      llvm.func internal @mixed_nest0(
// CHECK:        llvm.mlir.addressof @exps
// CHECK:        llvm.call @__mlir_math_ipowi_i32
// CHECK:        llvm.fpext %{{.*}} : f16 to f32
// CHECK:        llvm.intr.tanh
// CHECK:        llvm.fptrunc %{{.*}} : f32 to f16
// CHECK:      llvm.func linkonce_odr @__mlir_math_ipowi_i32(
// CHECK:      input arg0 3xsi32\0Ainput arg1 3xf16\0Aoutput result0 3xsi32\0Aoutput result1 3xf16\0Aend
memref.global "private" constant @exps : memref<3xi32> = dense<[0, 1, 3]>
func.func @mixed(%a: memref<3xi32>, %h: memref<3xf16>, %p: memref<3xi32>,
                 %t: memref<3xf16>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<3xsi32>, tensor<3xf16>],
                plaidml.outputs = [tensor<3xsi32>, tensor<3xf16>]} {
  %exps = memref.get_global @exps : memref<3xi32>
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 3 {
    %x = affine.load %a[%i] : memref<3xi32>
    %e = affine.load %exps[%i] : memref<3xi32>
    %y = math.ipowi %x, %e : i32
    %neg = arith.cmpi slt, %y, %zero : i32
    %r = scf.if %neg -> i32 {
      scf.yield %zero : i32
    } else {
      scf.yield %y : i32
    }
    affine.store %r, %p[%i] : memref<3xi32>
    %v = affine.load %h[%i] : memref<3xf16>
    %w = math.tanh %v : f16
    affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%i) {
      affine.store %w, %t[%i] : memref<3xf16>
    } else {
      affine.store %v, %t[%i] : memref<3xf16>
    }
  }
  return
}
