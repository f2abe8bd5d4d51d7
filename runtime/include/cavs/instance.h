//===- instance.h - running a compiled model over graph batches -----------===//
//
// A model instance couples a generated model library's definition
// (cavs/program.h) with its parameters, gradients and execution buffers,
// and runs the Cavs execution over graph batches:
//
//   forward  : schedule the batch; per vertex function the F-eager phase
//              over all its vertices; the F-body phase task by task; the
//              F-lazy phase over all vertices.
//   backward : ∂F eager, ∂F body in reverse task order, ∂F lazy; parameter
//              gradients are ADDED to the gradient store (zero it per step,
//              cavs_model_step does).
//
// Buffers (arenas, scratch, state, outputs, gradients) are kept and grown,
// never shrunk, so once batches stop growing a training loop allocates only
// the schedule of each batch. See docs/runtime.md, "Execution".
// An instance is not thread-safe; the kernels use $CAVS_NUM_THREADS threads
// (default: the number of cores; cavs_set_num_threads) for matrix products.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_INSTANCE_H
#define CAVS_INSTANCE_H

#include "cavs/graph.h"
#include "cavs/optim.h"
#include "cavs/program.h"
#include "cavs/schedule.h"

CAVS_EXTERN_C_BEGIN

typedef struct cavs_model cavs_model;

/// How a forward pass runs.
typedef enum cavs_mode {
  /// Keep every activation ∂F needs, so cavs_model_backward can follow.
  CAVS_MODE_TRAIN = 0,
  /// The inference program: no backward, narrower arenas.
  CAVS_MODE_INFER = 1,
  /// Not a mode: makes the enum 32 bits wide, so that any int a caller
  /// passes is a value the runtime can check and reject.
  CAVS_MODE_FORCE_INT32 = 0x7fffffff,
} cavs_mode;

/// Time spent by the last forward and backward passes, in seconds.
typedef struct cavs_model_timing {
  /// Scheduling the batch: cavs_schedule_create, the per-type index arrays
  /// and the buffer setup.
  double schedule;
  double forward_eager;
  double forward_body;
  double forward_lazy;
  double backward_eager;
  double backward_body;
  double backward_lazy;
  /// The last cavs_model_step (optimizer update and gradient zeroing).
  double optimizer;
} cavs_model_timing;

/// Where an instance runs.
typedef enum cavs_device_kind {
  CAVS_DEVICE_CPU = 0,
  /// An NVIDIA GPU, running the library's CUDA code (cavsc --target=cuda
  /// or cpu,cuda).
  CAVS_DEVICE_CUDA = 1,
  /// CUDA when the library has CUDA code and a GPU is usable, else the CPU.
  CAVS_DEVICE_AUTO = 2,
  /// Not a kind: makes the enum 32 bits wide.
  CAVS_DEVICE_FORCE_INT32 = 0x7fffffff,
} cavs_device_kind;

/// The device of a new instance.
typedef struct cavs_device_options {
  cavs_device_kind kind;
  /// The GPU (CUDA device ordinal); 0 for the CPU (another ordinal is
  /// refused there; with CAVS_DEVICE_AUTO, falling back to the CPU drops it).
  int32_t ordinal;
  /// Nonzero lets cuBLAS run float matrix products on TF32 tensor cores
  /// (faster, 10-bit mantissa inputs); off by default.
  int32_t allow_tf32;
} cavs_device_options;

/// Parses a device name: "cpu", "cuda" (GPU 0), "cuda:N" or "auto".
/// Fails with CAVS_ERROR_INVALID_ARGUMENT for anything else.
CAVS_API cavs_status cavs_device_parse(const char *name,
                                       cavs_device_options *out_options);

/// The number of usable CUDA GPUs. Fails with CAVS_ERROR_UNSUPPORTED, the
/// message saying why, when there is none: a runtime built without CUDA,
/// missing CUDA libraries, no driver or no GPU.
CAVS_API cavs_status cavs_cuda_device_count(int32_t *out_count);

/// Creates an instance of `def` with parameters initialised from `seed` and
/// zeroed gradients (tracking the rows of def->sparse_params). The instance
/// refers to `def`, which must outlive it (it is the constant data of the
/// generated library). Fails with CAVS_ERROR_UNSUPPORTED for another program
/// version and CAVS_ERROR_INVALID_ARGUMENT for an inconsistent definition
/// (the message names the model and the function).
CAVS_API cavs_status cavs_model_create(const cavs_model_def *def, uint64_t seed,
                                       cavs_model **out_model);

/// cavs_model_create on a chosen device. On a GPU the passes run there;
/// the parameter and gradient stores stay host memory (they are what the
/// optimizers, checkpoints and the distributed trainer use), copied to the
/// device when they changed. Fails with CAVS_ERROR_UNSUPPORTED when the
/// library lacks code for the device or no GPU is usable.
CAVS_API cavs_status cavs_model_create_on_device(
    const cavs_model_def *def, uint64_t seed,
    const cavs_device_options *device, cavs_model **out_model);

/// The device an instance runs on (CAVS_DEVICE_CPU or CAVS_DEVICE_CUDA)
/// and its name ("cpu", "cuda:0 (NVIDIA H200, sm_90)"; NULL on NULL, as
/// every accessor's).
CAVS_API cavs_device_kind cavs_model_device(const cavs_model *model);
CAVS_API const char *cavs_model_device_name(const cavs_model *model);

/// Destroys an instance; NULL is ignored.
CAVS_API void cavs_model_destroy(cavs_model *model);

/// The definition the instance runs.
CAVS_API const cavs_model_def *cavs_model_definition(const cavs_model *model);
/// Its parameters and gradients (owned by the instance).
CAVS_API cavs_param_store *cavs_model_params(cavs_model *model);
CAVS_API cavs_grad_store *cavs_model_grads(cavs_model *model);

/// Provides the f32 input `name` (a pull of some vertex function) for the
/// next forward passes: `count` floats, width of the input per batch vertex
/// id. The data is copied. i32 inputs come from the batch's attribute of the
/// same name instead. Fails for an unknown name, an i32 input or a count
/// that is not a multiple of the width. Setting an input after a train-mode
/// forward pass cancels its backward pass (∂F may read the input).
CAVS_API cavs_status cavs_model_set_input(cavs_model *model, const char *name,
                                          const float *data, int64_t count);

/// Runs F over `batch` and stores the sum of the losses in `*out_loss`
/// (may be NULL). The batch's types must match the model's vertex functions
/// (same count and arities), its attributes must provide every i32 input and
/// set_input every f32 input (for num_vertices vertices), its token ids and
/// labels must be in range; a batch that does not fit is rejected before
/// anything changes: no pass ran, and the previous pass, its outputs and
/// its pending backward stay (a caller that goes on to backward after a
/// rejection gets the previous batch's gradients). A phase that fails
/// during the pass ends it with its status; outputs and backward are then
/// unavailable until the next successful forward pass. In train mode the
/// batch must stay alive and unchanged until cavs_model_backward.
CAVS_API cavs_status cavs_model_forward(cavs_model *model,
                                        const cavs_graph_batch *batch,
                                        cavs_mode mode, double *out_loss);

/// The output `name` (a push) of the last forward pass: `*out_width` floats
/// per batch vertex id, zeros for vertices whose function does not push it.
/// NULL (the error message set, `*out_width` 0) for an unknown name, before
/// any forward pass or after a failed one, or when the output was disabled
/// (cavs_model_set_output_enabled) for the last forward pass. Valid until
/// the next forward pass.
CAVS_API const float *cavs_model_output(cavs_model *model, const char *name,
                                        int64_t *out_width);

/// Whether forward passes write output `name` (nonzero: yes, the default).
/// A training loop that never reads an output disables it to save the copy
/// of every vertex's row into it (the Tree-LSTM's h at H = 512: 2 KiB per
/// vertex, 0.4 % of a training batch) and its buffer. From the next forward
/// pass on, cavs_model_output fails for it; its gradient can still be set.
/// Fails for an unknown name.
CAVS_API cavs_status cavs_model_set_output_enabled(cavs_model *model,
                                                   const char *name,
                                                   int32_t enabled);

/// Provides the gradient of output `name` for the next backward pass
/// (copied; num_vertices * width floats). Outputs without one get zeros.
/// cavs_model_forward clears them. Fails unless a train-mode forward pass
/// awaits its backward pass.
CAVS_API cavs_status cavs_model_set_output_grad(cavs_model *model,
                                                const char *name,
                                                const float *data,
                                                int64_t count);

/// Runs ∂F for the last train-mode forward pass, adding the parameter
/// gradients to the gradient store. Fails when the last forward pass failed
/// or was not in train mode, or backward already ran (or failed) for it,
/// or an input or the parameters changed since (taking their writable
/// values counts as a change).
CAVS_API cavs_status cavs_model_backward(cavs_model *model);

/// The gradient of f32 input `name` computed by the last backward pass
/// (`*out_width` floats per batch vertex id). NULL (and the error message
/// set) for an unknown or i32 input, or when no backward pass succeeded
/// since the last forward pass. Valid until the next forward pass.
CAVS_API const float *cavs_model_input_grad(cavs_model *model, const char *name,
                                            int64_t *out_width);

/// One optimizer update from the accumulated gradients, which are then
/// zeroed. The optimizer must have been created for the instance's params.
CAVS_API cavs_status cavs_model_step(cavs_model *model,
                                     cavs_optimizer *optimizer);

/// Timing of the last forward, backward and step.
CAVS_API cavs_model_timing cavs_model_last_timing(const cavs_model *model);

/// The work of the last forward and backward passes, from the compiler's
/// per-vertex counts (cavs_function_desc::flops, copy_bytes) times the
/// vertices of each type; divide by cavs_model_timing for achieved rates.
typedef struct cavs_model_work {
  double forward_flops;
  double backward_flops;
  /// Bytes gathered and scattered between vertex rows and the state (and,
  /// in backward, state-gradient) buffers, forward plus backward.
  double copy_bytes;
} cavs_model_work;

/// The work of the last passes (backward fields 0 until backward runs).
CAVS_API cavs_model_work cavs_model_last_work(const cavs_model *model);

/// How the next forward passes cut their batch into tasks
/// (cavs/schedule.h; CAVS_SCHEDULE_LEVELS until set). Results agree up to
/// float rounding (sums over vertices run in another order); the number and
/// size of the batched tasks change. CAVS_ERROR_INVALID_ARGUMENT for a value
/// that is no policy.
CAVS_API cavs_status cavs_model_set_schedule_policy(cavs_model *model,
                                                    cavs_schedule_policy policy);

/// Number of batched tasks and of levels of the last forward pass's
/// schedule (0 before any).
CAVS_API int32_t cavs_model_last_num_tasks(const cavs_model *model);
CAVS_API int32_t cavs_model_last_num_levels(const cavs_model *model);
/// Number of vertices of the last forward pass's batch: the rows of the
/// outputs and gradients (0 before any).
CAVS_API int32_t cavs_model_last_num_vertices(const cavs_model *model);

/// The most kernel threads cavs_set_num_threads accepts.
#define CAVS_MAX_THREADS 4096

/// Sets the number of threads the kernels and the optimizer steps use
/// (1 to CAVS_MAX_THREADS). Process-wide; the
/// default, applied when the first instance is created, is
/// $CAVS_NUM_THREADS when it is set and not empty, else the number of cores
/// (1 when the system cannot start that many). A $CAVS_NUM_THREADS that is
/// no integer in that range, or more threads than the system starts, makes
/// every instance creation fail until this function sets a count.
/// CAVS_ERROR_OUT_OF_MEMORY when the system cannot start `threads` threads;
/// the count then stays as it was.
CAVS_API cavs_status cavs_set_num_threads(int32_t threads);
/// The current number of kernel threads.
CAVS_API int32_t cavs_num_threads(void);

/// The engine that runs the CPU's matrix products ("openblas", or "onednn"
/// where the runtime was built with oneDNN). Process-wide; the default is
/// oneDNN where its kernels use AVX-512 on this CPU, else OpenBLAS;
/// $CAVS_GEMM overrides it (applied when the first instance is created, or
/// by this call; docs/runtime.md, "GEMM engines").
CAVS_API const char *cavs_gemm_engine(void);
/// The kernel family the active engine runs on this CPU: OpenBLAS's core
/// ("Haswell", "Cooperlake", ...) or oneDNN's instruction set
/// ("avx512_core", ...). Valid until the next call on this thread.
CAVS_API const char *cavs_gemm_kernel(void);
/// Makes the engine called `name` the active one, over $CAVS_GEMM (a
/// $CAVS_GEMM that names no engine no longer fails instance creation);
/// CAVS_ERROR_INVALID_ARGUMENT (naming the engines built in) when there is
/// none.
CAVS_API cavs_status cavs_set_gemm_engine(const char *name);
/// The engines built into this runtime, OpenBLAS first; NULL for an index
/// out of range.
CAVS_API int32_t cavs_num_gemm_engines(void);
CAVS_API const char *cavs_gemm_engine_name(int32_t index);

CAVS_EXTERN_C_END

#endif // CAVS_INSTANCE_H
