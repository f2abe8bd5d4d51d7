//===- cavs-opt.cpp - the cavs pass driver ---------------------------------===//
//
// mlir-opt for the cavs dialect: parses IR, runs passes given on the command
// line and prints the result. lit tests drive every pass through it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipelines/Pipelines.h"
#include "dialects/CavsDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  cavs::registerCavsPipelines();
  mlir::DialectRegistry registry;
  registry.insert<cavs::CavsDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "cavs optimizer driver\n", registry));
}
