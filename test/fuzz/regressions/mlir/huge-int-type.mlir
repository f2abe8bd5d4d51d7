func.func @f() -> i16777215 { %c = arith.constant 1 : i16777215 return %c : i16777215 }
