/* make-checkpoint PATH [wide]: writes a checkpoint of a tiny model for the
   cavs-ckpt tests through the C ABI. The model "tiny" (W [3, 4], b [3],
   embed [5, 2]) is saved with Adam state after one step and a training
   state (epoch 3, best_score -1.25); "wide" is another model (W [3, 5])
   saved with neither. Exit status 1 on any
   failure, with the runtime's message. */
#include "cavs/runtime.h"

#include <stdio.h>
#include <string.h>

static const cavs_param_desc kTiny[] = {
    {"W", 2, CAVS_INIT_XAVIER, {3, 4}, {0, 0}},
    {"b", 1, CAVS_INIT_UNIFORM, {3, 0}, {-1, 1}},
    {"embed", 2, CAVS_INIT_NORMAL, {5, 2}, {0, 0.5}},
};
static const cavs_param_desc kWide[] = {
    {"W", 2, CAVS_INIT_XAVIER, {3, 5}, {0, 0}},
    {"b", 1, CAVS_INIT_UNIFORM, {3, 0}, {-1, 1}},
    {"embed", 2, CAVS_INIT_NORMAL, {5, 2}, {0, 0.5}},
};

static int fail(void) {
  fprintf(stderr, "make-checkpoint: %s\n", cavs_last_error_message());
  return 1;
}

int main(int argc, char **argv) {
  const int wide = argc > 2 && strcmp(argv[2], "wide") == 0;
  const cavs_model_desc model = {.version = CAVS_MODEL_DESC_VERSION,
                                 .num_params = 3,
                                 .name = wide ? "wide" : "tiny",
                                 .signature = wide ? 0x00000000feedf00dull
                                                   : 0x0123456789abcdefull,
                                 .params = wide ? kWide : kTiny};
  cavs_param_store *params = NULL;
  cavs_grad_store *grads = NULL;
  cavs_optimizer *adam = NULL;
  cavs_train_state *state = NULL;
  cavs_optimizer_options options;
  int64_t i;
  if (argc < 2 || cavs_param_store_create(&model, 1, &params) != CAVS_OK)
    return fail();
  if (wide)
    return cavs_checkpoint_save(argv[1], params, NULL) == CAVS_OK ? 0 : fail();
  if (cavs_grad_store_create(params, &grads) != CAVS_OK ||
      cavs_optimizer_options_init(CAVS_OPTIMIZER_ADAM, &options) != CAVS_OK ||
      cavs_optimizer_create(params, &options, &adam) != CAVS_OK)
    return fail();
  for (i = 0; i < cavs_param_store_size(params); ++i)
    cavs_grad_store_data(grads)[i] = 0.125f * (float)(i % 7);
  if (cavs_optimizer_step(adam, params, grads) != CAVS_OK ||
      cavs_train_state_create(&state) != CAVS_OK ||
      cavs_train_state_set_u64(state, "epoch", 3) != CAVS_OK ||
      cavs_train_state_set_f64(state, "best_score", -1.25) != CAVS_OK ||
      cavs_checkpoint_save_with_state(argv[1], params, adam, state) != CAVS_OK)
    return fail();
  return 0;
}
