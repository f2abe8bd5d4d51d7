//===- OpInterfacesTest.cpp - every fusable op can be compiled ------------===//
//
// cavs-fuse-elementwise puts every op with the ElementwiseMath or Reduction
// trait into kernels, and the CPU and CUDA kernel builders then ask each
// for its scalar body: an op that has the trait but not the interfaces
// would only fail when a model using it is compiled. This checks the whole
// op set at once.
//
//===----------------------------------------------------------------------===//

#include "dialects/CavsDialect.h"
#include "dialects/CavsOps.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace cavs;

namespace {
TEST(OpInterfaces, EveryFusableOpHasAScalarBodyAndACost) {
  MLIRContext context;
  context.loadDialect<CavsDialect>();
  unsigned fusable = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    bool reduction = name.hasTrait<cavs::OpTrait::Reduction>();
    if (!reduction && !name.hasTrait<cavs::OpTrait::ElementwiseMath>())
      continue;
    ++fusable;
    SCOPED_TRACE(name.getStringRef().str());
    EXPECT_TRUE(name.hasInterface<ElementwiseOpInterface>());
    EXPECT_TRUE(name.hasInterface<CostOpInterface>());
    EXPECT_EQ(name.hasInterface<ReductionOpInterface>(), reduction);
  }
  // At least add .. div, equal, the eight unary functions, sum, relu_grad
  // and the two reductions: the traits are found at all.
  EXPECT_GE(fusable, 17u);
}
} // namespace
