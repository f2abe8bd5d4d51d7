//===- DistApi.cpp - C ABI of the data-parallel trainer -------------------===//
//
// Thin adapters from cavs/dist.h onto distributed/Trainer.h. The same file
// serves builds with and without MPI: only createTrainer differs (it fails with
// CAVS_ERROR_UNSUPPORTED without MPI), so every entry point exists in both.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/dist.h"
#include "distributed/Trainer.h"
#include "support/Excerpt.h"
#include "support/Guard.h"

#include <cmath>
#include <cstdlib>
#include <memory>

using namespace cavs::runtime;

struct cavs_dist_trainer {
  std::unique_ptr<Trainer> impl;
};

namespace {

Status validateOptions(const cavs_dist_options &options) {
  if (!(options.timeout_seconds > 0) || !std::isfinite(options.timeout_seconds))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "timeout_seconds must be a positive number, got {}",
                     options.timeout_seconds);
  if (options.bucket_bytes < 4)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "bucket_bytes must be at least 4, got {}",
                     options.bucket_bytes);
  if (options.sparse_mode < CAVS_DIST_SPARSE_AUTO ||
      options.sparse_mode > CAVS_DIST_SPARSE_DENSE)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "sparse_mode {} is not a cavs_dist_sparse_mode",
                     static_cast<int>(options.sparse_mode));
  if (options.gpu_sums < CAVS_DIST_GPU_SUMS_AUTO ||
      options.gpu_sums > CAVS_DIST_GPU_SUMS_NCCL)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "gpu_sums {} is not a cavs_dist_gpu_sums",
                     static_cast<int>(options.gpu_sums));
  return Status();
}

/// The trainer shards graph batches; set_input data (f32 pulls) has no
/// sample structure it could follow.
Status requireNoF32Inputs(const cavs_model_def &def) {
  for (int32_t f = 0; f < def.train.num_functions; ++f) {
    const cavs_function_desc &function = def.train.functions[f];
    for (int32_t i = 0; i < function.num_pulls; ++i)
      if (!function.pulls[i].is_i32)
        return makeError(CAVS_ERROR_UNSUPPORTED,
                         "model '{}': the data-parallel trainer cannot shard "
                         "the f32 input '{}' (only i32 inputs, which come "
                         "from batch attributes)",
                         def.model->name, function.pulls[i].name);
  }
  return Status();
}

Status defaultOptions(cavs_dist_options &out) {
  cavs_dist_options options{};
  options.timeout_seconds = 30;
  options.bucket_bytes = int64_t(4) << 20;
  options.sparse_mode = CAVS_DIST_SPARSE_AUTO;
  options.gpu_sums = CAVS_DIST_GPU_SUMS_AUTO;
  // The environment can shorten the limit for tests or lengthen it for slow
  // networks without rebuilding the application.
  if (const char *text = std::getenv("CAVS_DIST_TIMEOUT")) {
    char *end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(seconds > 0) ||
        !std::isfinite(seconds))
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "CAVS_DIST_TIMEOUT='{}' is not a positive number of "
                       "seconds",
                       excerpt(text));
    options.timeout_seconds = seconds;
  }
  out = options;
  return Status();
}

Status requireTrainer(const cavs_dist_trainer *trainer) {
  return requireNonNull(trainer, "trainer");
}

} // namespace

extern "C" {

int32_t cavs_dist_available(void) { return trainerAvailable() ? 1 : 0; }

cavs_status cavs_dist_options_init(cavs_dist_options *out_options) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(out_options, "out_options"));
    return defaultOptions(*out_options);
  });
}

cavs_status cavs_dist_trainer_create(cavs_model *model,
                                     cavs_optimizer *optimizer,
                                     const cavs_dist_options *options,
                                     cavs_dist_trainer **out_trainer) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(model, "model"));
    CAVS_RETURN_IF_ERROR(requireNonNull(optimizer, "optimizer"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_trainer, "out_trainer"));
    cavs_dist_options settings{};
    if (options)
      settings = *options;
    else
      CAVS_RETURN_IF_ERROR(defaultOptions(settings));
    CAVS_RETURN_IF_ERROR(validateOptions(settings));
    // Checked now, not at the first step, after forward and backward ran.
    CAVS_RETURN_IF_ERROR(requireSameModel(model->impl.params()->impl.layout(),
                                          optimizer->impl.layout(),
                                          "the optimizer"));
    // Without MPI, createTrainer's "built without MPI" is the message.
    if (trainerAvailable())
      CAVS_RETURN_IF_ERROR(requireNoF32Inputs(*cavs_model_definition(model)));
    auto handle = std::make_unique<cavs_dist_trainer>();
    CAVS_RETURN_IF_ERROR(
        createTrainer(model, optimizer, settings, handle->impl));
    *out_trainer = handle.release();
    return Status();
  });
}

void cavs_dist_trainer_destroy(cavs_dist_trainer *trainer) { delete trainer; }

int32_t cavs_dist_trainer_rank(const cavs_dist_trainer *trainer) {
  return trainer ? trainer->impl->rank() : -1;
}

int32_t cavs_dist_trainer_size(const cavs_dist_trainer *trainer) {
  return trainer ? trainer->impl->size() : 0;
}

cavs_status cavs_dist_trainer_step(cavs_dist_trainer *trainer,
                                   const cavs_graph_batch *global_batch,
                                   double *out_loss) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireTrainer(trainer));
    CAVS_RETURN_IF_ERROR(requireNonNull(global_batch, "global_batch"));
    double loss = 0;
    CAVS_RETURN_IF_ERROR(trainer->impl->step(global_batch->impl, loss));
    if (out_loss)
      *out_loss = loss;
    return Status();
  });
}

cavs_status cavs_dist_trainer_allreduce_sum(cavs_dist_trainer *trainer,
                                            double *values, int32_t count) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireTrainer(trainer));
    if (count < 0)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "count must not be negative, got {}", count);
    if (count > 0)
      CAVS_RETURN_IF_ERROR(requireNonNull(values, "values"));
    return trainer->impl->allreduceSum(values, count);
  });
}

cavs_status cavs_dist_trainer_allgather(cavs_dist_trainer *trainer,
                                        const void *data, int32_t bytes,
                                        void *out_all) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireTrainer(trainer));
    if (bytes < 0)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "bytes must not be negative, got {}", bytes);
    if (bytes > 0) {
      CAVS_RETURN_IF_ERROR(requireNonNull(data, "data"));
      CAVS_RETURN_IF_ERROR(requireNonNull(out_all, "out_all"));
    }
    return trainer->impl->allgather(data, bytes, out_all);
  });
}

cavs_status cavs_dist_trainer_save(cavs_dist_trainer *trainer,
                                   const char *path) {
  return cavs_dist_trainer_save_with_state(trainer, path, nullptr);
}

cavs_status cavs_dist_trainer_save_with_state(cavs_dist_trainer *trainer,
                                              const char *path,
                                              const cavs_train_state *state) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireTrainer(trainer));
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    return trainer->impl->save(path, state);
  });
}

const char *cavs_dist_trainer_dense_sums(const cavs_dist_trainer *trainer) {
  return trainer ? trainer->impl->denseSums() : "";
}

cavs_dist_stats cavs_dist_trainer_last_stats(const cavs_dist_trainer *trainer) {
  return trainer ? trainer->impl->stats() : cavs_dist_stats{};
}

void cavs_dist_abort(int32_t code) { abortJob(code); }

void cavs_dist_finalize(void) { finalizeJob(); }

} // extern "C"
