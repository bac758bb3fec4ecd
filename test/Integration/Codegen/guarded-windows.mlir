// Windows that read outside their input (implicit padding: those points
// are invalid and skipped) on the CPU: convert-tile-to-affine splits each
// such reduction into an interior nest without guards and one nest per
// border value of the output index, in which the guards bound the window
// (split-guards); the CPU code generator then schedules every nest.
// Each entry is checked against the reference interpreter on the same
// random inputs: a 3x3 stride-2 max-pool padded by 1 (ResNet's first pool),
// a "same" 3x3 convolution, a 5x5 one padded by 2 (two border values a
// side), a 2x2 stride-2 pool of an odd size (a border at the end only), a
// guard of two output indices (a band: not split, it keeps its guard), a
// window padded by 6 (more border values than the split takes: it keeps
// its guards) and an integer min-pool; then constraints that are not read
// bounds (from a review): triangles, strides and negative coefficients on
// the output index, several constraints on one index, parities (an
// equality), and windows that are empty for some outputs (those keep the
// init; a border nest's window may be empty, or every point of it invalid).
//
// RUN: rm -rf %t && %python %S/compare_devices.py --plaidml-run plaidml-run \
// RUN:   --program %s --work-dir %t max_pool_pad1 conv_same conv5x5_pad2 \
// RUN:   pool_odd band wide_pad min_pool_si32 tri_lower tri_upper stride2 neg maxneg isum \
// RUN:   gap parity paritysi gap2 gap3 | FileCheck %s
// CHECK: PASS max_pool_pad1
// CHECK: PASS conv_same
// CHECK: PASS conv5x5_pad2
// CHECK: PASS pool_odd
// CHECK: PASS band
// CHECK: PASS wide_pad
// CHECK: PASS min_pool_si32
// CHECK: PASS tri_lower
// CHECK: PASS tri_upper
// CHECK: PASS stride2
// CHECK: PASS neg
// CHECK: PASS maxneg
// CHECK: PASS isum
// CHECK: PASS gap
// CHECK: PASS parity
// CHECK: PASS paritysi
// CHECK: PASS gap2
// CHECK: PASS gap3
//
// The nests, as plaidml-cpu-configure's remarks (at the contraction of
// each entry): the max-pool is four scheduled nests (interior, first row,
// first column, corner), the 5x5 convolution 25; the band and the wide
// window keep one nest with its guard, which the code generator does not
// take.
// RUN: plaidml-opt %s --pass-pipeline="builtin.module(func.func(tile-compute-bounds),convert-tile-to-affine,func.func(plaidml-cpu-configure{remarks=1}))" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

func.func @max_pool_pad1(%i: tensor<1x24x24x16xf32>) -> tensor<1x12x12x16xf32> {
  %init = tile.constant dense<0xFF800000> : tensor<f32>
  // REMARK-COUNT-4: guarded-windows.mlir:[[@LINE+2]]:8: remark: CPU schedule
  // REMARK-NOT: guarded-windows.mlir:[[@LINE+1]]:8: remark: no CPU schedule
  %o = tile.contract max, none, %init, %i {idxs = ["n", "x", "y", "c", "i", "j"],
         sink = affine_map<(n, x, y, c, i, j) -> (n, x, y, c)>,
         srcs = [affine_map<(n, x, y, c, i, j) -> (n, 2 * x + i - 1, 2 * y + j - 1, c)>],
         cons = affine_set<(n, x, y, c, i, j) : (i >= 0, -i + 2 >= 0, j >= 0, -j + 2 >= 0)>}
       : tensor<f32>, tensor<1x24x24x16xf32> -> tensor<1x12x12x16xf32>
  return %o : tensor<1x12x12x16xf32>
}

func.func @conv_same(%i: tensor<1x13x13x8xf32>, %k: tensor<3x3x8x16xf32>) -> tensor<1x13x13x16xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "x", "y", "co", "i", "j", "ci"],
         sink = affine_map<(n, x, y, co, i, j, ci) -> (n, x, y, co)>,
         srcs = [affine_map<(n, x, y, co, i, j, ci) -> (n, x + i - 1, y + j - 1, ci)>,
                 affine_map<(n, x, y, co, i, j, ci) -> (i, j, ci, co)>]}
       : tensor<f32>, tensor<1x13x13x8xf32>, tensor<3x3x8x16xf32> -> tensor<1x13x13x16xf32>
  return %o : tensor<1x13x13x16xf32>
}

func.func @conv5x5_pad2(%i: tensor<1x12x12x8xf32>, %k: tensor<5x5x8x8xf32>) -> tensor<1x12x12x8xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // REMARK-COUNT-25: guarded-windows.mlir:[[@LINE+2]]:8: remark: CPU schedule
  // REMARK-NOT: guarded-windows.mlir:[[@LINE+1]]:8: remark: no CPU schedule
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["n", "x", "y", "co", "i", "j", "ci"],
         sink = affine_map<(n, x, y, co, i, j, ci) -> (n, x, y, co)>,
         srcs = [affine_map<(n, x, y, co, i, j, ci) -> (n, x + i - 2, y + j - 2, ci)>,
                 affine_map<(n, x, y, co, i, j, ci) -> (i, j, ci, co)>]}
       : tensor<f32>, tensor<1x12x12x8xf32>, tensor<5x5x8x8xf32> -> tensor<1x12x12x8xf32>
  return %o : tensor<1x12x12x8xf32>
}

func.func @pool_odd(%i: tensor<1x9x9x8xf32>) -> tensor<1x5x5x8xf32> {
  %init = tile.constant dense<0xFF800000> : tensor<f32>
  %o = tile.contract max, none, %init, %i {idxs = ["n", "x", "y", "c", "i", "j"],
         sink = affine_map<(n, x, y, c, i, j) -> (n, x, y, c)>,
         srcs = [affine_map<(n, x, y, c, i, j) -> (n, 2 * x + i, 2 * y + j, c)>],
         cons = affine_set<(n, x, y, c, i, j) : (i >= 0, -i + 1 >= 0, j >= 0, -j + 1 >= 0)>}
       : tensor<f32>, tensor<1x9x9x8xf32> -> tensor<1x5x5x8xf32>
  return %o : tensor<1x5x5x8xf32>
}

// O[x, y] = sum over k of I[x + y - k] (k < 4): the read's guard involves
// both output indices.
func.func @band(%i: tensor<20xf32>) -> tensor<10x10xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // REMARK: guarded-windows.mlir:[[@LINE+1]]:8: remark: no CPU schedule: 'affine.if' is not an elementwise op
  %o = tile.contract add, none, %zero, %i {idxs = ["x", "y", "k"],
         sink = affine_map<(x, y, k) -> (x, y)>,
         srcs = [affine_map<(x, y, k) -> (x + y - k)>],
         cons = affine_set<(x, y, k) : (k >= 0, -k + 3 >= 0)>}
       : tensor<f32>, tensor<20xf32> -> tensor<10x10xf32>
  return %o : tensor<10x10xf32>
}

// A 13-wide window padded by 6: 6 border values a side.
func.func @wide_pad(%i: tensor<20x8xf32>, %k: tensor<13x8xf32>) -> tensor<20x8xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // REMARK: guarded-windows.mlir:[[@LINE+1]]:8: remark: no CPU schedule: 'affine.if' is not an elementwise op
  %o = tile.contract add, mul, %zero, %i, %k {idxs = ["x", "c", "i"],
         sink = affine_map<(x, c, i) -> (x, c)>,
         srcs = [affine_map<(x, c, i) -> (x + i - 6, c)>, affine_map<(x, c, i) -> (i, c)>]}
       : tensor<f32>, tensor<20x8xf32>, tensor<13x8xf32> -> tensor<20x8xf32>
  return %o : tensor<20x8xf32>
}

func.func @min_pool_si32(%i: tensor<1x10x10x8xsi32>) -> tensor<1x10x10x8xsi32> {
  %init = tile.constant dense<2147483647> : tensor<si32>
  %o = tile.contract min, none, %init, %i {idxs = ["n", "x", "y", "c", "i", "j"],
         sink = affine_map<(n, x, y, c, i, j) -> (n, x, y, c)>,
         srcs = [affine_map<(n, x, y, c, i, j) -> (n, x + i - 1, y + j - 1, c)>],
         cons = affine_set<(n, x, y, c, i, j) : (i >= 0, -i + 2 >= 0, j >= 0, -j + 2 >= 0)>}
       : tensor<si32>, tensor<1x10x10x8xsi32> -> tensor<1x10x10x8xsi32>
  return %o : tensor<1x10x10x8xsi32>
}

// Constraints that are not read bounds.
func.func @tri_lower(%i: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %z = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, none, %z, %i {idxs = ["x", "c", "k"],
         sink = affine_map<(x, c, k) -> (x, c)>,
         srcs = [affine_map<(x, c, k) -> (k, c)>],
         cons = affine_set<(x, c, k) : (x - k >= 0)>}
       : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @tri_upper(%i: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %z = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, none, %z, %i {idxs = ["x", "c", "k"],
         sink = affine_map<(x, c, k) -> (x, c)>,
         srcs = [affine_map<(x, c, k) -> (k, c)>],
         cons = affine_set<(x, c, k) : (k - x >= 0)>}
       : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @stride2(%i: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %z = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, none, %z, %i {idxs = ["x", "c", "k"],
         sink = affine_map<(x, c, k) -> (x, c)>,
         srcs = [affine_map<(x, c, k) -> (k, c)>],
         cons = affine_set<(x, c, k) : (2 * x - k - 1 >= 0)>}
       : tensor<f32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @neg(%i: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %z = tile.constant dense<0.0> : tensor<f32>
  %o = tile.contract add, none, %z, %i {idxs = ["x", "c", "k"],
         sink = affine_map<(x, c, k) -> (x, c)>,
         srcs = [affine_map<(x, c, k) -> (k, c)>],
         cons = affine_set<(x, c, k) : (-2 * x + k - 1 >= 0)>}
       : tensor<f32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @maxneg(%i: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %z = tile.constant dense<0xFF800000> : tensor<f32>
  %o = tile.contract max, none, %z, %i {idxs = ["x", "c", "k"],
         sink = affine_map<(x, c, k) -> (x, c)>,
         srcs = [affine_map<(x, c, k) -> (k, c)>],
         cons = affine_set<(x, c, k) : (-2 * x + k - 3 >= 0)>}
       : tensor<f32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @isum(%i: tensor<6x8xsi32>) -> tensor<5x8xsi32> {
  %z = tile.constant dense<7> : tensor<si32>
  %o = tile.contract add, none, %z, %i {idxs = ["x", "c", "k"],
         sink = affine_map<(x, c, k) -> (x, c)>,
         srcs = [affine_map<(x, c, k) -> (k, c)>],
         cons = affine_set<(x, c, k) : (x - k >= 0, k - x + 1 >= 0, x - 1 >= 0)>}
       : tensor<si32>, tensor<6x8xsi32> -> tensor<5x8xsi32>
  return %o : tensor<5x8xsi32>
}

func.func @gap(%i: tensor<3x16xf32>) -> tensor<3x3x16xf32> {
  %z = tile.constant dense<0.5> : tensor<f32>
  %o = tile.contract add, none, %z, %i {idxs = ["x", "y", "c", "k"],
         sink = affine_map<(x, y, c, k) -> (x, y, c)>,
         srcs = [affine_map<(x, y, c, k) -> (k, c)>],
         cons = affine_set<(x, y, c, k) : (k - x - y >= 0, k - x >= 0, k - y >= 0)>}
       : tensor<f32>, tensor<3x16xf32> -> tensor<3x3x16xf32>
  return %o : tensor<3x3x16xf32>
}
func.func @parity(%i: tensor<2x16xf32>) -> tensor<3x16xf32> {
  %z = tile.constant dense<0xFF800000> : tensor<f32>
  %o = tile.contract max, none, %z, %i {idxs = ["x", "c", "k"],
         sink = affine_map<(x, c, k) -> (x, c)>,
         srcs = [affine_map<(x, c, k) -> (k, c)>],
         cons = affine_set<(x, c, k) : (2 * k - x >= 0, x - 2 * k >= 0)>}
       : tensor<f32>, tensor<2x16xf32> -> tensor<3x16xf32>
  return %o : tensor<3x16xf32>
}
func.func @paritysi(%i: tensor<2x16xsi32>) -> tensor<3x16xsi32> {
  %z = tile.constant dense<5> : tensor<si32>
  %o = tile.contract add, none, %z, %i {idxs = ["x", "c", "k"],
         sink = affine_map<(x, c, k) -> (x, c)>,
         srcs = [affine_map<(x, c, k) -> (k, c)>],
         cons = affine_set<(x, c, k) : (2 * k - x == 0)>}
       : tensor<si32>, tensor<2x16xsi32> -> tensor<3x16xsi32>
  return %o : tensor<3x16xsi32>
}

func.func @gap2(%i: tensor<3x16xf32>) -> tensor<3x3x16xf32> {
  %z = tile.constant dense<0.5> : tensor<f32>
  %o = tile.contract add, none, %z, %i {idxs = ["x", "y", "c", "k"],
         sink = affine_map<(x, y, c, k) -> (x, y, c)>,
         srcs = [affine_map<(x, y, c, k) -> (k, c)>],
         cons = affine_set<(x, y, c, k) : (k - x - y >= 0, 2 * k - x >= 0, 2 * k - y >= 0)>}
       : tensor<f32>, tensor<3x16xf32> -> tensor<3x3x16xf32>
  return %o : tensor<3x3x16xf32>
}

func.func @gap3(%i: tensor<4x16xf32>, %w: tensor<4xf32>) -> tensor<4x4x16xf32> {
  %z = tile.constant dense<0.5> : tensor<f32>
  %o = tile.contract add, mul, %z, %i, %w {idxs = ["x", "y", "c", "k", "j"],
         sink = affine_map<(x, y, c, k, j) -> (x, y, c)>,
         srcs = [affine_map<(x, y, c, k, j) -> (k, c)>, affine_map<(x, y, c, k, j) -> (j)>],
         cons = affine_set<(x, y, c, k, j) : (k - x - y >= 0, j - x + 1 >= 0, j - y + 1 >= 0)>}
       : tensor<f32>, tensor<4x16xf32>, tensor<4xf32> -> tensor<4x4x16xf32>
  return %o : tensor<4x4x16xf32>
}
