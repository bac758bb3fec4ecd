// A 256 MiB input: more than lavapipe's maxStorageBufferRange (128 MiB).
// Used by vulkan-errors.test.
func.func @big(%a: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %r = tile.relu %a : tensor<8192x8192xf32>
  return %r : tensor<8192x8192xf32>
}
