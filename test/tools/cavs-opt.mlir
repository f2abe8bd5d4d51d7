// cavs-opt registers the cavs dialect alongside builtin/func/arith and runs
// generic passes over it.
// RUN: cavs-opt %s --canonicalize | FileCheck %s
// RUN: cavs-opt --help | FileCheck %s --check-prefix=HELP

// HELP: cavs optimizer driver

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT: return %[[C]]
func.func @f() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}

// CHECK-LABEL: cavs.model @m
cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
  }
}
