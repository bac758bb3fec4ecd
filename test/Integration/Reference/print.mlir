// --print summarizes an output of more than 1000 elements like NumPy: the
// first and last three of each longer dimension around "..." (a 2048x2048
// result once printed 39 MB of text); --print=all prints every element, and
// 1000 elements are still printed in full.
// RUN: plaidml-run %s --device reference --entry grid --print | FileCheck %s --check-prefix=SUMMARY --match-full-lines
// RUN: plaidml-run %s --device cpu --entry grid --print | FileCheck %s --check-prefix=SUMMARY --match-full-lines
// RUN: plaidml-run %s --device reference --entry grid --print=all | count 41
// RUN: plaidml-run %s --device reference --entry grid --print=all | FileCheck %s --check-prefix=ALL
// RUN: plaidml-run %s --device reference --entry thousand --print | FileCheck %s --check-prefix=THOUSAND
// RUN: not plaidml-run %s --device reference --entry grid --print=some 2>&1 | FileCheck %s --check-prefix=BAD

// SUMMARY:      result0: 40x50xsi32
// SUMMARY-NEXT: {{\[\[}}0, 1, 2, ..., 47, 48, 49],
// SUMMARY-NEXT:  [50, 51, 52, ..., 97, 98, 99],
// SUMMARY-NEXT:  [100, 101, 102, ..., 147, 148, 149],
// SUMMARY-NEXT:  ...,
// SUMMARY-NEXT:  [1850, 1851, 1852, ..., 1897, 1898, 1899],
// SUMMARY-NEXT:  [1900, 1901, 1902, ..., 1947, 1948, 1949],
// SUMMARY-NEXT:  [1950, 1951, 1952, ..., 1997, 1998, 1999]]
// ALL-NOT: ...
// ALL: [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007,
// ALL-NOT: ...
func.func @grid() -> tensor<40x50xsi32> {
  %i = tile.index 0 : tensor<40x50xsi32>
  %j = tile.index 1 : tensor<40x50xsi32>
  %c = tile.constant dense<50> : tensor<si32>
  %r = tile.mul %i, %c : tensor<40x50xsi32>, tensor<si32> -> tensor<40x50xsi32>
  %s = tile.add %r, %j : tensor<40x50xsi32>
  return %s : tensor<40x50xsi32>
}

// THOUSAND: result0: 10x100xsi32
// THOUSAND-NOT: ...
// THOUSAND: 997, 998, 999]]
func.func @thousand() -> tensor<10x100xsi32> {
  %i = tile.index 0 : tensor<10x100xsi32>
  %j = tile.index 1 : tensor<10x100xsi32>
  %c = tile.constant dense<100> : tensor<si32>
  %r = tile.mul %i, %c : tensor<10x100xsi32>, tensor<si32> -> tensor<10x100xsi32>
  %s = tile.add %r, %j : tensor<10x100xsi32>
  return %s : tensor<10x100xsi32>
}

// BAD: plaidml-run: error: --print takes no value or =all, got 'some'
