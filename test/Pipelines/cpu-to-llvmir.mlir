// RUN: plaidml-opt %s -plaidml-cpu-lowering-pipeline="cpu=x86-64 triple=x86_64-unknown-linux-gnu" \
// RUN:   | plaidml-translate --mlir-to-llvmir | FileCheck %s
// REQUIRES: host-x86_64

// The CPU pipeline's output translates to LLVM IR with plaidml-translate,
// f16 code included (whose lowering leaves #arith attributes behind, which
// upstream mlir-translate cannot parse).

// CHECK: target triple = "x86_64-unknown-linux-gnu"
// CHECK: @plaidml_manifest = constant [{{[0-9]+}} x i8] c"plaidml-artifact 1\0Acompiler 0.1.0\0Adevice cpu\0Atriple x86_64-unknown-linux-gnu\0Acpu x86-64\0Afeatures +64bit,+cmov,+cx8,+fxsr,+mmx,+sse,+sse2\0Aentry twice _plaidml_entry_twice\0Ainput arg0 8xf16\0Aoutput result0 8xf16\0Aend\0A\00"
// CHECK:      define void @_plaidml_entry_twice(ptr %[[BUFS:.*]]) {
// CHECK-NEXT:   %[[S0:.*]] = getelementptr inbounds ptr, ptr %[[BUFS]], i32 0
// CHECK-NEXT:   %[[B0:.*]] = load ptr, ptr %[[S0]]
// CHECK-NEXT:   %[[S1:.*]] = getelementptr inbounds ptr, ptr %[[BUFS]], i32 1
// CHECK-NEXT:   %[[B1:.*]] = load ptr, ptr %[[S1]]
// CHECK-NEXT:   call void @twice(ptr %[[B0]], ptr %[[B1]])
// CHECK-NEXT:   ret void
// CHECK:      define internal void @twice(ptr %{{.*}}, ptr %{{.*}}) {
// CHECK:        call float @llvm.exp.f32(
func.func @twice(%a: memref<8xf16>, %out: memref<8xf16>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<8xf16>],
                plaidml.outputs = [tensor<8xf16>]} {
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xf16>
    %y = math.exp %x : f16
    affine.store %y, %out[%i] : memref<8xf16>
  }
  return
}
