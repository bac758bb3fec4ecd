// The high half of x * x: arith.mului_extended has no OpenCL C translation,
// SPIR-V has OpUMulExtended, so kernel-format=both gives a kernel bundle
// with SPIR-V alone (opencl-compile.test, opencl-kernel-formats.test).
func.func @mulhi(%a: memref<8xi32>, %b: memref<8xi32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<8xui32>],
                plaidml.outputs = [tensor<8xui32>]} {
  affine.parallel (%i) = (0) to (8) {
    %x = affine.load %a[%i] : memref<8xi32>
    %lo, %hi = arith.mului_extended %x, %x : i32
    affine.store %hi, %b[%i] : memref<8xi32>
  }
  return
}
