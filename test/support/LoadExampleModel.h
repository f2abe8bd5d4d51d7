//===- LoadExampleModel.h - an example model as cavs IR, for tests -*- C++ -*-===//
//
// The gradient checks and the model-library tests both start from the same
// step: read a file of examples/models (CAVS_EXAMPLES_DIR), run the frontend
// with the model's -D overrides and generate its cavs IR. Failures are
// gtest failures naming the file.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_SUPPORT_LOADEXAMPLEMODEL_H
#define CAVS_TEST_SUPPORT_LOADEXAMPLEMODEL_H

#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"
#include "test/support/ExampleModels.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace cavs::test {

/// Loads `model` into `sourceMgr` and fills `module`; `checked` keeps the
/// frontend's result, which the module's locations refer to.
inline void loadExampleModel(const ExampleModel &model,
                             mlir::MLIRContext &context,
                             llvm::SourceMgr &sourceMgr,
                             std::unique_ptr<FrontendResult> &checked,
                             mlir::OwningOpRef<mlir::ModuleOp> &module) {
  const std::string path =
      std::string(model.directory ? model.directory : CAVS_EXAMPLES_DIR) +
      "/" + model.file;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(buffer) << "cannot read " << path;
  addSourceBuffer(sourceMgr, std::move(*buffer));
  checked = runFrontend(sourceMgr, model.defines);
  ASSERT_TRUE(checked) << path << " does not compile";
  module = generateMLIR(context, sourceMgr, checked->model);
  ASSERT_TRUE(module);
}

} // namespace cavs::test

#endif // CAVS_TEST_SUPPORT_LOADEXAMPLEMODEL_H
