// Driver for ../contraction.mlir: calls each lowered function with output
// buffers and prints them. Appended to the lowered module by the RUN line.
func.func @main() {
  %s0 = llvm.mlir.addressof @s_matmul : !llvm.ptr
  %s1 = llvm.mlir.addressof @s_same_conv : !llvm.ptr
  %s2 = llvm.mlir.addressof @s_cumsum : !llvm.ptr
  %s3 = llvm.mlir.addressof @s_argmax : !llvm.ptr
  %s4 = llvm.mlir.addressof @s_mixed : !llvm.ptr

  llvm.call @puts(%s0) : (!llvm.ptr) -> i32
  %mm = memref.alloc() : memref<2x2xf32>
  call @matmul(%mm) : (memref<2x2xf32>) -> ()
  %mmu = memref.cast %mm : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%mmu) : (memref<*xf32>) -> ()

  llvm.call @puts(%s1) : (!llvm.ptr) -> i32
  %sc = memref.alloc() : memref<4xi32>
  call @same_conv(%sc) : (memref<4xi32>) -> ()
  %scu = memref.cast %sc : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%scu) : (memref<*xi32>) -> ()

  llvm.call @puts(%s2) : (!llvm.ptr) -> i32
  %cs = memref.alloc() : memref<5xi64>
  call @cumsum(%cs) : (memref<5xi64>) -> ()
  %csu = memref.cast %cs : memref<5xi64> to memref<*xi64>
  call @printMemrefI64(%csu) : (memref<*xi64>) -> ()

  llvm.call @puts(%s3) : (!llvm.ptr) -> i32
  %am = memref.alloc() : memref<3xf32>
  %ai = memref.alloc() : memref<3xi32>
  call @argmax(%am, %ai) : (memref<3xf32>, memref<3xi32>) -> ()
  %amu = memref.cast %am : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%amu) : (memref<*xf32>) -> ()
  %aiu = memref.cast %ai : memref<3xi32> to memref<*xi32>
  call @printMemrefI32(%aiu) : (memref<*xi32>) -> ()

  llvm.call @puts(%s4) : (!llvm.ptr) -> i32
  %md = memref.alloc() : memref<3x3xf64>
  %ms = memref.alloc() : memref<f32>
  %mp = memref.alloc() : memref<i32>
  call @mixed(%md, %ms, %mp) : (memref<3x3xf64>, memref<f32>, memref<i32>) -> ()
  %mdu = memref.cast %md : memref<3x3xf64> to memref<*xf64>
  call @printMemrefF64(%mdu) : (memref<*xf64>) -> ()
  %msu = memref.cast %ms : memref<f32> to memref<*xf32>
  call @printMemrefF32(%msu) : (memref<*xf32>) -> ()
  %mpu = memref.cast %mp : memref<i32> to memref<*xi32>
  call @printMemrefI32(%mpu) : (memref<*xi32>) -> ()
  return
}
llvm.mlir.global internal constant @s_matmul("matmul\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @s_same_conv("same_conv\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @s_cumsum("cumsum\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @s_argmax("argmax\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @s_mixed("mixed\00") {addr_space = 0 : i32}
llvm.func @puts(!llvm.ptr) -> i32
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}
