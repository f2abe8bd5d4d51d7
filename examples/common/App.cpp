//===- App.cpp - the frame around every app's training loop ---------------===//
#include "App.h"

#include <iostream>
#include <new>

namespace cavs_examples {

int runApp(const ArgParser &parser, int argc, char **argv,
           const std::function<int()> &run) {
  const std::string &name = parser.program();
  try {
    if (!parser.parse(argc, argv)) {
      std::cout << parser.usage();
      return 0;
    }
    return run();
  } catch (const UsageError &error) {
    std::cerr << name << ": " << error.what() << " (see " << name
              << " --help)\n";
    return 2;
  } catch (const cavs::Error &error) {
    std::cerr << name << ": error: " << error.what() << " ["
              << cavs_status_string(error.status()) << "]\n";
    return 1;
  } catch (const std::bad_alloc &) {
    // What the app's own data needed (a huge --leaves, say): the runtime's
    // allocations report their sizes themselves.
    std::cerr << name
              << ": error: out of memory (the data or the model is "
                 "too large for this machine)\n";
    return 1;
  } catch (const std::exception &error) {
    std::cerr << name << ": error: " << error.what() << "\n";
    return 1;
  }
}

void setUpThreads(int32_t threads) {
  if (threads > 0)
    cavs::check(cavs_set_num_threads(threads));
  std::cout << "GEMM engine: " << cavs_gemm_engine() << " ("
            << cavs_gemm_kernel() << "), kernel threads: " << cavs_num_threads()
            << "\n";
}

void printModel(const cavs::Model &model, const std::string &details) {
  const cavs_param_store *params = model.params();
  int64_t count = 0;
  for (int32_t i = 0; i < cavs_param_store_num_params(params); ++i)
    count += cavs_param_store_param(params, i)->size;
  std::cout << "model: " << cavs_model_definition(model.get())->model->name
            << ", " << count << " parameters on " << model.deviceName() << "; "
            << details << "\n";
}

cavs_optimizer_options optimizerOptions(cavs::OptimizerKind kind,
                                        double learningRate, double clip,
                                        double weightDecay) {
  cavs_optimizer_options options = cavs::Optimizer::defaults(kind);
  options.learning_rate = learningRate;
  options.clip_norm = clip;
  options.weight_decay = weightDecay;
  return options;
}

void requireRows(const cavs::Model &model, const std::string &name,
                 int64_t needed, const std::string &dim) {
  const cavs_param_store *params = model.params();
  const cavs_param_info *info = cavs_param_store_param(
      params, cavs_param_store_find_param(params, name.c_str()));
  const int64_t rows = info ? info->shape[0] : -1;
  if (needed > rows)
    throw cavs::Error(CAVS_ERROR_INVALID_ARGUMENT,
                      "the data needs " + std::to_string(needed) +
                          " rows of '" + name + "' but the model has " +
                          std::to_string(rows) + "; compile it with a larger " +
                          dim + " (cavs_add_model ... DEFINES " + dim +
                          "=<n>)");
}

void requireRowsForFlag(const cavs::Model &model, const std::string &flag,
                        const std::string &name, int64_t needed,
                        const std::string &dim) {
  try {
    requireRows(model, name, needed, dim);
  } catch (const cavs::Error &error) {
    throw UsageError(flag + " " + std::to_string(needed) + ": " + error.what());
  }
}

} // namespace cavs_examples
