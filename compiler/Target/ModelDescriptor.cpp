//===- ModelDescriptor.cpp - C descriptor and header of a model -----------===//
//
// C source rather than LLVM globals: the descriptor is nested constant data
// (strings, arrays of structs, function pointers) that C states in a few
// readable lines, checked by the C compiler against cavs/program.h itself.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/ModelDescriptor.h"

#include "compiler/Analysis/ModelStats.h"
#include "compiler/Target/CudaCompiler.h"
#include "compiler/Target/ModelLibrary.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace cavs;

namespace {
void hashBytes(uint64_t &hash, StringRef bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
}

/// The exclusive upper bound that `use` puts on the i32 value it reads: the
/// rows of a lookup table for its index, the classes of a cross-entropy for
/// its label; 0 for none (an f32 pull read as the logits is not bounded).
int64_t idLimit(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto lookup = dyn_cast<LookupOp>(user);
      lookup && &use == &lookup.getIndexMutable())
    return cast<RankedTensorType>(lookup.getTable().getType()).getDimSize(0);
  if (auto loss = dyn_cast<SoftmaxCrossEntropyOp>(user);
      loss && &use == &loss.getLabelMutable())
    return cast<RankedTensorType>(loss.getLogits().getType()).getDimSize(0);
  return 0;
}

/// Per pulled i32 input, the least limit of its uses (absent: unchecked),
/// which the runtime checks before a pass so that an out-of-range id is
/// reported by sample, vertex and input name.
llvm::StringMap<int64_t> pullLimits(VertexOp vertex) {
  llvm::StringMap<int64_t> limits;
  vertex.walk([&](PullOp pull) {
    for (OpOperand &use : pull->getUses())
      if (int64_t limit = idLimit(use)) {
        auto [it, inserted] = limits.try_emplace(pull.getName(), limit);
        it->second = std::min(it->second, limit);
      }
  });
  return limits;
}

/// An io descriptor list: `{"name", is_i32, width, limit}, ...`.
void writeIoList(DictionaryAttr entries, const llvm::StringMap<int64_t> &limits,
                 raw_ostream &os) {
  for (NamedAttribute entry : entries) {
    Type type = cast<TypeAttr>(entry.getValue()).getValue();
    os << "  {\"" << entry.getName().getValue() << "\", "
       << !isa<RankedTensorType>(type) << ", " << valueWidth(type) << ", "
       << limits.lookup(entry.getName().getValue()) << "},\n";
  }
}

std::string ioListName(StringRef program, VertexOp vertex, StringRef kind) {
  return (program + "_" + vertex.getSymName() + "_" + kind).str();
}

/// Declarations of a program's phase functions.
void declarePhases(const CompiledProgram &program, raw_ostream &os) {
  for (const VertexFunctionSymbols &function : program.functions)
    for (const std::string &symbol : function.phases)
      if (!symbol.empty())
        os << "cavs_status " << symbol << "(const cavs_call *call);\n";
}

/// The parameters (descriptor indices, sorted, packs as their members)
/// whose gradient a phase adds to.
llvm::SmallVector<int32_t> gradParamIndices(const PhaseStats &phase,
                                            const ParamOrder &order) {
  llvm::SmallVector<int32_t> indices;
  for (StringRef symbol : phase.gradParams)
    llvm::append_range(indices, order.paramIndices(symbol));
  llvm::sort(indices);
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return indices;
}

/// The parameters (descriptor indices, ascending) whose gradients track
/// touched rows: lookup tables whose gradient nothing but lookups writes.
/// Any other writer, such as the GEMM of `embed @ h` when input and output
/// embeddings are tied, adds to rows no lookup marks, which a row-tracking
/// store would neither update nor zero; so one dense use makes the whole
/// gradient dense.
llvm::SmallVector<int32_t> sparseParams(ModelOp train,
                                        const ParamOrder &order) {
  llvm::BitVector lookedUp(order.params.size()), dense(order.params.size());
  train.walk([&](Operation *op) {
    TypeSwitch<Operation *>(op)
        .Case([&](LookupOp lookup) {
          if (auto ref = lookup.getTable().getDefiningOp<ParamRefOp>())
            lookedUp.set(order.paramIndex(ref.getParam()));
        })
        .Case<ParamGradOp, ParamGradOuterOp>([&](auto grad) {
          for (int32_t index : order.paramIndices(grad.getParam()))
            dense.set(index);
        });
  });
  lookedUp.reset(dense);
  llvm::SmallVector<int32_t> sparse;
  for (unsigned index : lookedUp.set_bits())
    sparse.push_back(static_cast<int32_t>(index));
  return sparse;
}

std::string gradListName(StringRef program, VertexOp vertex, size_t phase) {
  return (program + "_" + vertex.getSymName() + "_grads" + Twine(phase)).str();
}

/// Declarations of the phase functions and the function table of a program.
void writeProgram(const CompiledProgram &program, const ParamOrder &order,
                  StringRef name, raw_ostream &os) {
  declarePhases(program, os);
  // Per function and phase: its counts and its gradient list.
  std::vector<std::array<PhaseStats, 6>> stats;
  std::vector<std::array<llvm::SmallVector<int32_t>, 6>> grads;
  for (const VertexFunctionSymbols &function : program.functions) {
    VertexOp vertex = function.vertex;
    stats.push_back(vertexPhaseStats(vertex));
    grads.emplace_back();
    for (size_t phase = 0; phase < 6; ++phase) {
      grads.back()[phase] = gradParamIndices(stats.back()[phase], order);
      if (grads.back()[phase].empty())
        continue;
      os << "static const int32_t " << gradListName(name, vertex, phase)
         << "[] = {";
      llvm::interleaveComma(grads.back()[phase], os);
      os << "};\n";
    }
    const llvm::StringMap<int64_t> pulls = pullLimits(vertex), pushes;
    for (auto [kind, list, limits] :
         {std::tuple{"pulls", vertex.getPulls(), &pulls},
          {"pushes", vertex.getPushes(), &pushes}})
      if (!list.empty()) {
        os << "static const cavs_io_desc " << ioListName(name, vertex, kind)
           << "[] = {\n";
        writeIoList(list, *limits, os);
        os << "};\n";
      }
  }
  os << "static const cavs_function_desc " << name << "_functions[] = {\n";
  for (auto [f, function] : llvm::enumerate(program.functions)) {
    VertexOp vertex = function.vertex;
    auto width = [&](StringRef attr) {
      return vertex->getAttrOfType<IntegerAttr>(attr).getInt();
    };
    auto list = [&](DictionaryAttr entries, StringRef kind) {
      return entries.empty() ? std::string("NULL")
                             : ioListName(name, vertex, kind);
    };
    os << "  {\"" << vertex.getSymName() << "\", " << vertex.getArity() << ", "
       << vertex.getPulls().size() << ", " << vertex.getPushes().size() << ", "
       << list(vertex.getPulls(), "pulls") << ", "
       << list(vertex.getPushes(), "pushes") << ", "
       << width(CavsDialect::kArenaWidthAttrName) << ", "
       << width(CavsDialect::kScratchWidthAttrName) << ",\n   {";
    llvm::interleaveComma(function.phases, os, [&](const std::string &symbol) {
      os << (symbol.empty() ? "NULL" : symbol);
    });
    os << "},\n   {";
    llvm::interleaveComma(stats[f], os,
                          [&](const PhaseStats &phase) { os << phase.flops; });
    os << "},\n   {";
    llvm::interleaveComma(
        stats[f], os, [&](const PhaseStats &phase) { os << phase.copyBytes; });
    os << "},\n   {";
    for (size_t phase = 0; phase < 6; ++phase)
      os << (phase ? ", " : "")
         << (grads[f][phase].empty() ? std::string("NULL")
                                     : gradListName(name, vertex, phase));
    os << "},\n   {";
    llvm::interleaveComma(grads[f], os, [&](const auto &list) {
      os << list.size();
    });
    os << "},\n   {";
    llvm::interleaveComma(stats[f], os, [&](const PhaseStats &phase) {
      os << !phase.sumsOverRows;
    });
    os << "}},\n";
  }
  os << "};\n\n";
}
/// `bytes` as the initializer of a C byte array, 16 bytes per line.
void writeBytes(StringRef bytes, raw_ostream &os) {
  for (size_t i = 0; i < bytes.size(); ++i)
    os << (i % 16 ? " " : "\n  ")
       << llvm::format("0x%02x,", static_cast<unsigned char>(bytes[i]));
}

/// Declarations of a program's CUDA phase functions and their table,
/// `<name>_phases`.
void writeCudaPhases(const CompiledProgram &program, StringRef name,
                     raw_ostream &os) {
  declarePhases(program, os);
  os << "static const cavs_phase_fn " << name << "_phases[] = {\n";
  for (const VertexFunctionSymbols &function : program.functions) {
    os << "  ";
    for (const std::string &symbol : function.phases)
      os << (symbol.empty() ? "NULL" : symbol) << ", ";
    os << "\n";
  }
  os << "};\n";
}

/// The CUDA image and phase functions, as `cuda`; `hostKernels`: the CPU
/// kernels exist (named like the CUDA ones).
void writeCuda(const CudaImage &image, bool hostKernels, raw_ostream &os) {
  const CudaCode &code = *image.code;
  os << "static const unsigned char cuda_cubin[] = {";
  writeBytes(image.cubin, os);
  os << "\n};\nstatic const char cuda_ptx[] = {";
  writeBytes(image.ptx, os);
  os << "\n  0};\nstatic const char *const cuda_kernels[] = {\n";
  for (const std::string &kernel : code.kernels)
    os << "  \"" << kernel << "\",\n";
  os << "};\n";
  writeCudaPhases(code.train, "cuda_train", os);
  writeCudaPhases(code.infer, "cuda_infer", os);
  if (hostKernels) {
    // Declared without their operands: only their addresses are taken.
    for (const std::string &kernel : code.kernels)
      os << "void " << kernel << "(void);\n";
    os << "static const cavs_host_kernel_fn host_kernels[] = {\n";
    for (const std::string &kernel : code.kernels)
      os << "  " << kernel << ",\n";
    os << "};\n";
  }
  os << "static const cavs_cuda_desc cuda = {" << kCudaArch
     << ", cuda_cubin, sizeof(cuda_cubin), "
     << "cuda_ptx, " << code.kernels.size()
     << ", cuda_kernels, cuda_train_phases, cuda_infer_phases, "
     << (hostKernels ? "host_kernels" : "NULL") << "};\n\n";
}
} // namespace

uint64_t cavs::modelSignature(ModelOp model) {
  // By name, so that declaring the parameters in another order keeps the
  // checkpoints (they match tensors by name).
  llvm::SmallVector<ParamOp> params(model.getBody().getOps<ParamOp>());
  llvm::sort(params, [](ParamOp a, ParamOp b) {
    return a.getSymName() < b.getSymName();
  });
  std::string entries;
  llvm::raw_string_ostream os(entries);
  for (ParamOp param : params) {
    os << "param " << param.getSymName() << ":";
    llvm::interleave(param.getTensorType().getShape(), os, "x");
    os << ";";
  }
  RankedTensorType state = model.getStateType();
  os << "state " << (state ? state.getNumElements() : 0) << ";";
  uint64_t hash = 0xcbf29ce484222325ULL;
  hashBytes(hash, entries);
  return hash;
}

std::vector<std::string> cavs::exportedSymbols(ModelOp model) {
  return {(model.getSymName() + "_model_def").str(),
          (model.getSymName() + "_create").str()};
}

void cavs::writeDescriptorSource(const ParamOrder &order,
                                 const CompiledProgram &train,
                                 const CompiledProgram &infer,
                                 const CudaImage *cuda, StringRef sourceName,
                                 raw_ostream &os) {
  ModelOp trainModel = train.model;
  StringRef name = trainModel.getSymName();
  os << "/* Generated by cavsc from " << sourceName
     << ": the definition of model '" << name << "'. */\n"
     << "#include \"cavs/instance.h\"\n\n#include <stddef.h>\n\n";

  os << "static const cavs_param_desc params[] = {\n";
  for (ParamOp param : order.params) {
    ArrayRef<int64_t> shape = param.getType().getShape();
    ArrayRef<double> args = param.getInitArgs();
    os << "  {\"" << param.getSymName() << "\", " << shape.size() << ", "
       << "(cavs_init_kind)" << static_cast<uint32_t>(param.getInit()) << ", {"
       << shape[0] << ", " << (shape.size() == 2 ? shape[1] : 0) << "}, {"
       << llvm::format("%.17g", args.size() > 0 ? args[0] : 0.0) << ", "
       << llvm::format("%.17g", args.size() > 1 ? args[1] : 0.0) << "}},\n";
  }
  os << "};\n";
  if (!order.packs.empty()) {
    // Member indices, which need not be consecutive: the parameters keep
    // their declaration order.
    for (size_t k = 0; k < order.packs.size(); ++k) {
      os << "static const int32_t pack" << k << "_members[] = {";
      llvm::interleaveComma(
          order.paramIndices(ParamPackOp(order.packs[k]).getSymName()), os);
      os << "};\n";
    }
    os << "static const cavs_pack_desc packs[] = {\n";
    for (size_t k = 0; k < order.packs.size(); ++k) {
      ParamPackOp pack = order.packs[k];
      os << "  {\"" << pack.getSymName() << "\", " << pack.getMembers().size()
         << ", pack" << k << "_members},\n";
    }
    os << "};\n";
  }
  os << "static const cavs_model_desc model = {CAVS_MODEL_DESC_VERSION, "
     << order.params.size() << ", " << order.packs.size() << ", \"" << name
     << "\", "
     << llvm::format("0x%016llxULL",
                     (unsigned long long)modelSignature(trainModel))
     << ", params, " << (order.packs.empty() ? "NULL" : "packs") << "};\n\n";

  llvm::SmallVector<int32_t> sparse = sparseParams(trainModel, order);
  if (!sparse.empty()) {
    os << "static const int32_t sparse_params[] = {";
    llvm::interleaveComma(sparse, os);
    os << "};\n\n";
  }

  writeProgram(train, order, "train", os);
  writeProgram(infer, order, "infer", os);
  if (cuda)
    writeCuda(*cuda, train.hasCode, os);

  RankedTensorType state = trainModel.getStateType();
  os << "static const cavs_model_def definition = {\n"
     << "  CAVS_PROGRAM_VERSION, " << (state ? state.getNumElements() : 0)
     << ", &model, " << sparse.size() << ", "
     << (sparse.empty() ? "NULL" : "sparse_params") << ",\n"
     << "  {" << train.functions.size() << ", train_functions},\n"
     << "  {" << infer.functions.size() << ", infer_functions},\n"
     << "  " << train.hasCode << ", " << (cuda ? "&cuda" : "NULL") << "};\n\n";

  std::vector<std::string> exported = exportedSymbols(trainModel);
  os << "const cavs_model_def *" << exported[0]
     << "(void) { return &definition; }\n\n"
     << "cavs_status " << exported[1]
     << "(uint64_t seed, cavs_model **out_model) {\n"
     << "  return cavs_model_create(&definition, seed, out_model);\n}\n";
}

void cavs::writeModelHeader(ModelOp model, StringRef sourceName,
                            raw_ostream &os) {
  StringRef name = model.getSymName();
  // The name as it is: models whose names differ in case only (tree, Tree)
  // have headers of their own.
  std::string guard = ("CAVS_MODEL_" + name + "_H").str();
  std::vector<std::string> exported = exportedSymbols(model);
  os << "/* Generated by cavsc from " << sourceName
     << ": the entry points of model '" << name << "'. */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include \"cavs/instance.h\"\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  os << "/* The definition of model '" << name
     << "' (cavs/program.h). Vertex functions, in graph type order:\n";
  for (auto vertex : model.getBody().getOps<VertexOp>()) {
    os << " *   " << vertex.getSymName() << " (arity " << vertex.getArity()
       << ")";
    auto list = [&](StringRef kind, DictionaryAttr entries) {
      if (entries.empty())
        return;
      os << "; " << kind << " ";
      llvm::interleaveComma(entries, os, [&](NamedAttribute entry) {
        Type type = cast<TypeAttr>(entry.getValue()).getValue();
        os << entry.getName().getValue() << " : ";
        if (auto tensor = dyn_cast<RankedTensorType>(type))
          os << "f32[" << tensor.getNumElements() << "]";
        else
          os << "i32";
      });
    };
    list("inputs", vertex.getPulls());
    list("outputs", vertex.getPushes());
    os << "\n";
  }
  os << " */\nconst cavs_model_def *" << exported[0] << "(void);\n\n"
     << "/* cavs_model_create with that definition. */\n"
     << "cavs_status " << exported[1]
     << "(uint64_t seed, cavs_model **out_model);\n\n"
     << "#ifdef __cplusplus\n} /* extern \"C\" */\n\n"
     << "#include \"cavs/runtime.hpp\"\n\n"
     << "namespace cavs_models {\n"
     << "/// An instance of model '" << name
     << "' with parameters initialised from `seed`.\n"
     << "class " << name << " : public cavs::Model {\npublic:\n"
     << "  explicit " << name << "(uint64_t seed = 0)\n"
     << "      : cavs::Model(*::" << exported[0] << "(), seed) {}\n"
     << "  /// On `device`: \"cpu\", \"cuda\", \"cuda:N\" or \"auto\".\n"
     << "  " << name << "(uint64_t seed, const std::string &device)\n"
     << "      : cavs::Model(*::" << exported[0] << "(), seed, device) {}\n"
     << "};\n} // namespace cavs_models\n#endif\n\n#endif /* " << guard
     << " */\n";
}
