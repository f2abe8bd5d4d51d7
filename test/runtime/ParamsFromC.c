//===- ParamsFromC.c - parameters, optimizers, checkpoints from C99 -------===//
//
// Compiled as C99 with -pedantic-errors: a static model descriptor as the
// compiler emits it, a training step, a checkpoint and a safetensors round
// trip through the C ABI only. CheckpointTest and SafetensorsTest call the
// functions.
//
//===----------------------------------------------------------------------===//
#include "cavs/runtime.h"

#include <stddef.h>

static const cavs_param_desc kParams[] = {
    {"embed", 2, CAVS_INIT_UNIFORM, {100, 8}, {-0.05, 0.05}},
    {"W_i", 2, CAVS_INIT_XAVIER, {8, 8}, {0, 0}},
    {"W_f", 2, CAVS_INIT_XAVIER, {8, 8}, {0, 0}},
    {"b", 1, CAVS_INIT_ZEROS, {16, 0}, {0, 0}},
};
static const int32_t kPackMembers[] = {1, 2};
static const cavs_pack_desc kPacks[] = {{"W_if", 2, kPackMembers}};
static const cavs_model_desc kModel = {.version = CAVS_MODEL_DESC_VERSION,
                                       .num_params = 4,
                                       .num_packs = 1,
                                       .name = "c_model",
                                       .signature = 0x0123456789abcdefull,
                                       .params = kParams,
                                       .packs = kPacks};

/// Returns 0 when every step works and the reloaded parameters equal the
/// saved ones, else the number of the failed step.
int cavsTestTrainFromC(const char *checkpointPath) {
  cavs_param_store *params = NULL, *reloaded = NULL;
  cavs_grad_store *grads = NULL;
  cavs_optimizer *optimizer = NULL;
  cavs_optimizer_options options;
  const int32_t rows[] = {3, 42, 3};
  int64_t i;
  int result = 0;
  float *g = NULL;
  if (cavs_param_store_create(&kModel, 7, &params) != CAVS_OK)
    result = 1;
  else if (cavs_grad_store_create(params, &grads) != CAVS_OK ||
           cavs_grad_store_track_rows(grads, 0) != CAVS_OK ||
           cavs_grad_store_mark_rows(grads, 0, rows, 3) != CAVS_OK)
    result = 2;
  else if (cavs_optimizer_options_init(CAVS_OPTIMIZER_ADAM, &options) !=
               CAVS_OK ||
           cavs_optimizer_create(params, &options, &optimizer) != CAVS_OK)
    result = 3;
  if (result == 0) {
    g = cavs_grad_store_pack_data(grads, 0);
    for (i = 0; i < cavs_param_store_pack(params, 0)->size; ++i)
      g[i] = 0.01f * (float)i;
    if (cavs_optimizer_step(optimizer, params, grads) != CAVS_OK ||
        cavs_optimizer_step_count(optimizer) != 1)
      result = 4;
    else if (cavs_checkpoint_save(checkpointPath, params, optimizer) !=
                 CAVS_OK ||
             cavs_param_store_create(&kModel, 8, &reloaded) != CAVS_OK ||
             cavs_checkpoint_load(checkpointPath, reloaded, NULL) != CAVS_OK)
      result = 5;
  }
  for (i = 0; result == 0 && i < cavs_param_store_size(params); ++i)
    if (cavs_param_store_data(params)[i] != cavs_param_store_data(reloaded)[i])
      result = 6;
  cavs_optimizer_destroy(optimizer);
  cavs_grad_store_destroy(grads);
  cavs_param_store_destroy(reloaded);
  cavs_param_store_destroy(params);
  return result;
}

/// Returns 0 when a safetensors round trip through `path` restores the
/// parameters and NULL arguments fail cleanly, else the number of the
/// failed step.
int cavsTestSafetensorsFromC(const char *path) {
  cavs_param_store *saved = NULL, *loaded = NULL;
  int64_t i;
  int result = 0;
  if (cavs_param_store_create(&kModel, 7, &saved) != CAVS_OK ||
      cavs_param_store_create(&kModel, 8, &loaded) != CAVS_OK)
    result = 1;
  else if (cavs_safetensors_save(path, saved) != CAVS_OK ||
           cavs_safetensors_load(path, loaded) != CAVS_OK)
    result = 2;
  else if (cavs_safetensors_save(path, NULL) != CAVS_ERROR_INVALID_ARGUMENT ||
           cavs_safetensors_load(NULL, loaded) != CAVS_ERROR_INVALID_ARGUMENT ||
           cavs_safetensors_from_checkpoint(NULL, path) !=
               CAVS_ERROR_INVALID_ARGUMENT ||
           cavs_safetensors_to_checkpoint(path, NULL, path) !=
               CAVS_ERROR_INVALID_ARGUMENT)
    result = 3;
  for (i = 0; result == 0 && i < cavs_param_store_size(saved); ++i)
    if (cavs_param_store_data(saved)[i] != cavs_param_store_data(loaded)[i])
      result = 4;
  cavs_param_store_destroy(loaded);
  cavs_param_store_destroy(saved);
  return result;
}
