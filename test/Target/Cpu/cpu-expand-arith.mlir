// RUN: plaidml-opt %s -split-input-file -plaidml-cpu-expand-arith | FileCheck %s

// Float max and min stay for convert-arith-to-llvm (LLVM's maximum and
// minimum order -0 < +0); upstream's arith-expand would make each a
// compare and a select.
// CHECK-LABEL: func.func @min_max_kept
// CHECK-SAME: (%[[X:.*]]: vector<8xf32>, %[[Y:.*]]: vector<8xf32>)
// CHECK-NEXT: %[[A:.*]] = arith.maximumf %[[X]], %[[Y]] : vector<8xf32>
// CHECK-NEXT: %[[B:.*]] = arith.minimumf %[[A]], %[[Y]] : vector<8xf32>
// CHECK-NEXT: %[[C:.*]] = arith.maxnumf %[[B]], %[[X]] : vector<8xf32>
// CHECK-NEXT: %[[D:.*]] = arith.minnumf %[[C]], %[[X]] : vector<8xf32>
// CHECK-NEXT: return %[[D]]
// CHECK-NOT: arith.cmpf
func.func @min_max_kept(%x: vector<8xf32>, %y: vector<8xf32>) -> vector<8xf32> {
  %a = arith.maximumf %x, %y : vector<8xf32>
  %b = arith.minimumf %a, %y : vector<8xf32>
  %c = arith.maxnumf %b, %x : vector<8xf32>
  %d = arith.minnumf %c, %x : vector<8xf32>
  return %d : vector<8xf32>
}

// -----

// The integer divisions LLVM has no instruction for are expanded.
// CHECK-LABEL: func.func @divisions
// CHECK-NOT: arith.floordivsi
// CHECK-NOT: arith.ceildivsi
// CHECK-NOT: arith.ceildivui
// CHECK: arith.divsi
// CHECK: arith.select
// CHECK: arith.divui
func.func @divisions(%a: i32, %b: i32) -> (i32, i32, i32) {
  %f = arith.floordivsi %a, %b : i32
  %c = arith.ceildivsi %a, %b : i32
  %u = arith.ceildivui %a, %b : i32
  return %f, %c, %u : i32, i32, i32
}
