// Driver for ../elementwise.mlir: calls each lowered function with output
// buffers and prints them. Appended to the lowered module by the RUN line.
func.func @main() {
  %s0 = llvm.mlir.addressof @s_ints : !llvm.ptr
  %s1 = llvm.mlir.addressof @s_casts : !llvm.ptr
  %s2 = llvm.mlir.addressof @s_pow : !llvm.ptr
  %s3 = llvm.mlir.addressof @s_gather_scatter : !llvm.ptr
  %s4 = llvm.mlir.addressof @s_with_input : !llvm.ptr

  llvm.call @puts(%s0) : (!llvm.ptr) -> i32
  %i0 = memref.alloc() : memref<6xi32>
  %i1 = memref.alloc() : memref<6xi32>
  %i2 = memref.alloc() : memref<6xi64>
  %i3 = memref.alloc() : memref<6xi32>
  %i4 = memref.alloc() : memref<6xi64>
  call @ints(%i0, %i1, %i2, %i3, %i4) : (memref<6xi32>, memref<6xi32>, memref<6xi64>, memref<6xi32>, memref<6xi64>) -> ()
  call @print32(%i0) : (memref<6xi32>) -> ()
  call @print32(%i1) : (memref<6xi32>) -> ()
  call @print64(%i2) : (memref<6xi64>) -> ()
  call @print32(%i3) : (memref<6xi32>) -> ()
  call @print64(%i4) : (memref<6xi64>) -> ()

  llvm.call @puts(%s1) : (!llvm.ptr) -> i32
  %c0 = memref.alloc() : memref<8xi32>
  %c1 = memref.alloc() : memref<8xi32>
  %c2 = memref.alloc() : memref<8xi32>
  call @casts(%c0, %c1, %c2) : (memref<8xi32>, memref<8xi32>, memref<8xi32>) -> ()
  %c0u = memref.cast %c0 : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%c0u) : (memref<*xi32>) -> ()
  %c1u = memref.cast %c1 : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%c1u) : (memref<*xi32>) -> ()
  %c2u = memref.cast %c2 : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%c2u) : (memref<*xi32>) -> ()

  llvm.call @puts(%s2) : (!llvm.ptr) -> i32
  %p = memref.alloc() : memref<6xi32>
  call @pow(%p) : (memref<6xi32>) -> ()
  call @print32(%p) : (memref<6xi32>) -> ()

  llvm.call @puts(%s3) : (!llvm.ptr) -> i32
  %g = memref.alloc() : memref<3x2xf32>
  %s = memref.alloc() : memref<4xf32>
  call @gather_scatter(%g, %s) : (memref<3x2xf32>, memref<4xf32>) -> ()
  %gu = memref.cast %g : memref<3x2xf32> to memref<*xf32>
  call @printMemrefF32(%gu) : (memref<*xf32>) -> ()
  %su = memref.cast %s : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%su) : (memref<*xf32>) -> ()

  llvm.call @puts(%s4) : (!llvm.ptr) -> i32
  %in = memref.get_global @input : memref<3xi32>
  %w0 = memref.alloc() : memref<3xi32>
  %w1 = memref.alloc() : memref<3xi32>
  call @with_input(%in, %w0, %w1) : (memref<3xi32>, memref<3xi32>, memref<3xi32>) -> ()
  %w0u = memref.cast %w0 : memref<3xi32> to memref<*xi32>
  call @printMemrefI32(%w0u) : (memref<*xi32>) -> ()
  %w1u = memref.cast %w1 : memref<3xi32> to memref<*xi32>
  call @printMemrefI32(%w1u) : (memref<*xi32>) -> ()
  return
}
func.func @print32(%m: memref<6xi32>) {
  %u = memref.cast %m : memref<6xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func @print64(%m: memref<6xi64>) {
  %u = memref.cast %m : memref<6xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}
memref.global "private" constant @input : memref<3xi32> = dense<[1, -2, 3]>
llvm.mlir.global internal constant @s_ints("ints\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @s_casts("casts\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @s_pow("pow\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @s_gather_scatter("gather_scatter\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @s_with_input("with_input\00") {addr_space = 0 : i32}
llvm.func @puts(!llvm.ptr) -> i32
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}
