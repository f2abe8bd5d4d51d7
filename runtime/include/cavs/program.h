//===- program.h - what a generated model library hands the runtime -------===//
//
// cavsc compiles a model into phase functions (one per vertex function and
// execution phase) plus constant descriptors; the runtime's executor
// (cavs/instance.h) runs them over the tasks of a schedule. This header is
// the ABI between the two: the generated header includes it, users do not
// need it.
//
// The six phases of a vertex function, in execution order, are the Cavs
// batching classes of F and of ∂F: eager ops run once over every vertex of
// the function's type (the whole arena) before the recursion, body ops task
// by task (backward in reverse task order), lazy ops once over every vertex
// afterwards.
//
// Buffers a phase function sees (see docs/runtime.md, "Execution"):
// - the function's arena: arena_floats floats per vertex of its type, in
//   task order (the schedule's local rows); `arena` points at its start,
//   `arena_rows` is the type's vertex count and `arena_row` the call's
//   first local row. How a phase lays its values out in there is the
//   compiler's choice: cavsc stores them block by block, each block a
//   matrix of `arena_rows` rows (dialects/ArenaLayout.h);
// - the task scratch: scratch_floats floats per vertex of the running task
//   (body phases only);
// - the shared state and state-gradient buffers: state_width floats per
//   global row (cavs/schedule.h).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_PROGRAM_H
#define CAVS_PROGRAM_H

#include "cavs/device_ops.h"
#include "cavs/model.h"

CAVS_EXTERN_C_BEGIN

/// The version of the structs below (cavs_model_def::version).
#define CAVS_PROGRAM_VERSION 7

/// Execution phases, in order; index of cavs_function_desc::phases.
typedef enum cavs_phase {
  CAVS_PHASE_FORWARD_EAGER = 0,
  CAVS_PHASE_FORWARD_BODY = 1,
  CAVS_PHASE_FORWARD_LAZY = 2,
  CAVS_PHASE_BACKWARD_EAGER = 3,
  CAVS_PHASE_BACKWARD_BODY = 4,
  CAVS_PHASE_BACKWARD_LAZY = 5,
  CAVS_NUM_PHASES = 6,
} cavs_phase;

/// The arguments of one phase-function call, described in cavs/call.def.
/// Every field is 8 bytes wide (the generated code addresses field i at
/// byte offset 8 * i), and the order is fixed. For a CUDA phase function
/// every buffer pointer is a device pointer, except child_views, which the
/// host code reads.
typedef struct cavs_call {
#define CAVS_CALL_FIELD(type, name) type name;
#include "cavs/call.def"
} cavs_call;

/// A generated phase function. A failure (an out-of-range token id or
/// label) returns its status with the message set, before writing the
/// outputs of the failing op.
typedef cavs_status (*cavs_phase_fn)(const cavs_call *call);

/// One external input (pull) or output (push) of a vertex function.
typedef struct cavs_io_desc {
  const char *name;
  /// 1 for an i32 value (one int32 per vertex), 0 for f32.
  int32_t is_i32;
  /// Values per vertex (1 for i32).
  int32_t width;
  /// An i32 pull read as a lookup index or a class label: its values must
  /// be below `limit` (the table's rows, the classes; negative ones mean
  /// "none"). The executor checks the batch before a forward pass, so that
  /// a bad id is reported by sample, vertex and input. 0: not checked (f32
  /// values, pushes, i32 values no op bounds).
  int64_t limit;
} cavs_io_desc;

/// One vertex function; its index in the program is the graph's type id.
typedef struct cavs_function_desc {
  const char *name;
  int32_t arity;
  int32_t num_pulls;
  int32_t num_pushes;
  const cavs_io_desc *pulls;
  const cavs_io_desc *pushes;
  /// Floats of the arena per vertex of the type, and per scratch row.
  int64_t arena_floats;
  int64_t scratch_floats;
  /// Indexed by cavs_phase; NULL for a phase without ops.
  cavs_phase_fn phases[CAVS_NUM_PHASES];
  /// Per vertex and phase (cavs_phase order): floating-point operations
  /// (a multiply-add counts 2) and bytes copied between the vertex's rows
  /// and the state buffers, as counted by the compiler (cavsc --emit=stats);
  /// the runtime reports the work of each pass from them.
  int64_t flops[CAVS_NUM_PHASES];
  int64_t copy_bytes[CAVS_NUM_PHASES];
  /// Per phase: the parameters (cavs_model_desc indices, ascending) whose
  /// gradient the phase adds to, or NULL; num_grad_params[p] of them. A
  /// parameter's gradient is final once the last backward phase listing it
  /// has run, which lets the distributed trainer start summing it while the
  /// rest of the backward pass runs.
  const int32_t *grad_params[CAVS_NUM_PHASES];
  int32_t num_grad_params[CAVS_NUM_PHASES];
  /// Per phase: 1 when its work on a vertex reads and writes only that
  /// vertex's rows (arena, scratch, state, state gradient, pulls, pushes)
  /// and its children's state rows, adding into the children's
  /// state-gradient rows at most; 0 when an op sums over the call's rows
  /// (the loss, a parameter gradient). The CPU may run a task's row-local
  /// body as calls over consecutive rows on the kernel threads
  /// (docs/runtime.md, "Timing, threads and determinism").
  int32_t row_local[CAVS_NUM_PHASES];
} cavs_function_desc;

/// The vertex functions compiled under one memory plan.
typedef struct cavs_program_desc {
  int32_t num_functions;
  const cavs_function_desc *functions;
} cavs_program_desc;

/// A fused kernel's CPU code, `void kernel(int64_t rows, <operands>)` with
/// 8-byte operands, as one pointer type (cast before calling).
typedef void (*cavs_host_kernel_fn)(void);

/// The CUDA code of a model library (cavsc --target=cuda or cpu,cuda).
typedef struct cavs_cuda_desc {
  /// The compute capability the CUBIN is for, times ten (90: sm_90).
  int32_t arch;
  /// The fused kernels as machine code for `arch` (an ELF image) and as PTX
  /// of the same source for newer GPUs (NUL-terminated text).
  const unsigned char *cubin;
  int64_t cubin_size;
  const char *ptx;
  /// The kernels' names, by cavs_device_ops::launch's `kernel` index.
  int32_t num_kernels;
  const char *const *kernels;
  /// The CUDA phase functions of the training and inference programs:
  /// entry f * CAVS_NUM_PHASES + p is phase p of vertex function f (NULL
  /// for a phase without ops); the rest of each function is described by
  /// cavs_model_def::train and ::infer.
  const cavs_phase_fn *train_phases;
  const cavs_phase_fn *infer_phases;
  /// With CPU code too (cpu,cuda): the CPU twin of each kernel, which takes
  /// the same operands, cast to one pointer type; NULL otherwise. They let
  /// a device be emulated on the host, which tests the CUDA phase functions
  /// and the executor's device path on machines without a GPU.
  const cavs_host_kernel_fn *host_kernels;
} cavs_cuda_desc;

/// Everything a generated model library describes.
typedef struct cavs_model_def {
  /// CAVS_PROGRAM_VERSION of the emitting compiler.
  int32_t version;
  /// Floats of state per vertex (0 for a model without state).
  int64_t state_width;
  /// The parameters.
  const cavs_model_desc *model;
  /// Parameters read by a lookup, whose gradient rows are tracked.
  int32_t num_sparse_params;
  const int32_t *sparse_params;
  /// Training: F and ∂F, every value ∂F needs kept in the arena.
  cavs_program_desc train;
  /// Inference: F alone, planned without backward (narrower arenas).
  cavs_program_desc infer;
  /// Whether the library has CPU code; without it (cavsc --target=cuda)
  /// every phase of `train` and `infer` is NULL.
  int32_t has_cpu;
  /// The CUDA code, or NULL.
  const cavs_cuda_desc *cuda;
} cavs_model_def;

CAVS_EXTERN_C_END

#endif // CAVS_PROGRAM_H
