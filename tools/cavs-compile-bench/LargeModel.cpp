//===- LargeModel.cpp - generated vertex functions of a given size --------===//
#include "LargeModel.h"

#include <algorithm>

namespace cavs::bench {

LargeModel largeModel(int64_t units) {
  LargeModel model;
  std::string &s = model.source;
  s = "model large;\n"
      "dim H = 8;\n"
      "state f32[H];\n"
      "param W : f32[H, H] = xavier;\n"
      "param b : f32[H] = zeros;\n"
      "vertex v(arity = 1) {\n"
      "  x0 = gather(0);\n";
  // Every instruction costs the frontend's limit 1 + its operands (a
  // parameter is an operand of elementwise ops, not of `@`), parameter
  // references nothing; every matmul reads W through a reference of its
  // own, the uses of b share one.
  auto emitted = [&](int64_t ops, int64_t cost) {
    model.ops += ops;
    model.units += cost;
  };
  emitted(1, 1); // gather(0)
  auto x = [](int64_t i) {
    return "x" + std::to_string(std::max<int64_t>(i, 0));
  };
  int64_t i = 0;
  do {
    ++i;
    const std::string lhs = "  " + x(i) + " = ";
    if (i % 10 == 0) {
      s += lhs + "W @ " + x(i - 1) + " + " + x(i - 17) + ";\n";
      emitted(3, 2 + 3);
    } else if (i % 3 == 0) {
      s += lhs + "sigmoid(" + x(i - 1) + ") * " + x(i - 3) + " + b;\n";
      emitted(3, 2 + 3 + 3);
      if (i == 3)
        emitted(1, 0);
    } else {
      s += lhs + "tanh(" + x(i - 1) + ") + " + x(i - 17) + ";\n";
      emitted(2, 2 + 3);
    }
  } while (model.units + 2 < units);
  emitted(1, 2);
  s += "  scatter(" + x(i) + ");\n}\n";
  return model;
}

} // namespace cavs::bench
