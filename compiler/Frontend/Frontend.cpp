//===- Frontend.cpp - entry points of the .cavs frontend ------------------===//
//
// Wires the stages together. Syntax errors stop the run before sema: checking
// a tree with holes in it would mostly produce follow-on noise. Bad -D options
// do not: they are dropped and the model is still checked.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Frontend.h"

#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Lexer.h"
#include "compiler/Frontend/Parser.h"
#include "compiler/Frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace cavs;

/// Parses the -D options; malformed ones, and a second value for one name,
/// are reported and dropped (the same value again is harmless). Whether
/// the names are dims is only known after parsing (see Sema).
static llvm::SmallVector<DimOverride, 4>
parseDefines(llvm::ArrayRef<std::string> defines, DiagEngine &diag) {
  llvm::SmallVector<DimOverride, 4> overrides;
  for (const std::string &define : defines) {
    auto [name, value] = llvm::StringRef(define).split('=');
    if (name.empty() || name.size() == define.size()) {
      diag.error(llvm::SMLoc(), "bad -D '" + define + "': expected NAME=VALUE");
      continue;
    }
    int64_t number;
    if (value.getAsInteger(10, number) || number <= 0) {
      // Digits that do not fit are positive, just too large.
      const bool tooLarge =
          !value.empty() &&
          value.find_first_not_of("0123456789") == llvm::StringRef::npos &&
          value.find_first_not_of('0') != llvm::StringRef::npos;
      diag.error(llvm::SMLoc(),
                 "bad -D '" + define + "': '" + value +
                     (tooLarge ? "' is too large (at most 2^63 - 1)"
                               : "' is not a positive integer"));
      continue;
    }
    auto earlier = llvm::find_if(overrides, [&](const DimOverride &other) {
      return other.name == name;
    });
    if (earlier == overrides.end()) {
      overrides.push_back({define, name.str(), number});
    } else if (earlier->value != number) {
      diag.error(llvm::SMLoc(), "bad -D '" + define + "': '" + name +
                                    "' is already set by -D '" +
                                    earlier->spelling + "'");
    }
  }
  return overrides;
}

void cavs::addSourceBuffer(llvm::SourceMgr &sourceMgr,
                           std::unique_ptr<llvm::MemoryBuffer> source) {
  llvm::StringRef text = source->getBuffer();
  const bool bom = text.consume_front("\xEF\xBB\xBF");
  std::string normalized = text.str();
  for (size_t i = 0; i < normalized.size(); ++i)
    if (normalized[i] == '\r' &&
        (i + 1 == normalized.size() || normalized[i + 1] != '\n'))
      normalized[i] = '\n';
  if (bom || normalized != text)
    source = llvm::MemoryBuffer::getMemBufferCopy(
        normalized, source->getBufferIdentifier());
  sourceMgr.AddNewSourceBuffer(std::move(source), llvm::SMLoc());
}

std::unique_ptr<FrontendResult>
cavs::runFrontend(llvm::SourceMgr &sourceMgr,
                  llvm::ArrayRef<std::string> defines) {
  DiagEngine diag(sourceMgr, "cavsc");
  llvm::SmallVector<DimOverride, 4> overrides = parseDefines(defines, diag);

  llvm::StringRef source =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  Lexer lexer(source, diag);
  unsigned errorsBeforeParsing = diag.getNumErrors();
  std::unique_ptr<ModuleAST> ast = Parser(lexer, diag).parseModule();
  if (diag.getNumErrors() != errorsBeforeParsing || diag.shouldStop())
    return nullptr;

  std::optional<checked::Model> model = checkModule(*ast, overrides, diag);
  if (!model)
    return nullptr;
  auto module = std::make_unique<FrontendResult>();
  module->sourceMgr = &sourceMgr;
  module->ast = std::move(ast);
  module->model = std::move(*model);
  return module;
}

void cavs::printAST(const FrontendResult &module, llvm::raw_ostream &os) {
  dumpAST(*module.ast, *module.sourceMgr, os);
}
