//===- ToyModels.cpp - hand-written phase functions of the toy models -----===//
//
// Each phase function is what cavsc would generate for its class of ops:
// eager ops over a function's whole arena (pulls, lookups, everything that
// does not depend on children), body ops per task (gather, scatter and what
// depends on them; in backward the state gradient and the child gradients),
// lazy ops over the whole arena afterwards (pushes, losses, parameter and
// input gradients). Arenas are templated on their row length A, so the
// train (wider) and infer programs share the code.
//
//===----------------------------------------------------------------------===//
#include "ToyModels.h"

#include "cavs/ops.h"

namespace cavs::test {

namespace {

// Arena columns of the scalar models (sumtree, leafsum): the pulled x, the
// state h, and in training dh and dx.
constexpr int kX = 0, kH = 1, kDh = 2, kDx = 3;

/// The call's first arena row. The toys keep their arenas row by row, A
/// floats a vertex: an arena's layout is its phase functions' own choice.
template <int A> float *arenaRows(const cavs_call *c) {
  return c->arena + c->arena_row * A;
}

/// gather(k) of a scalar state into scratch column k, in place when the
/// schedule says the rows are a view.
void gatherChild(const cavs_call *c, int64_t k, int64_t width, float *dst,
                 int64_t ld) {
  if (c->child_views[k] >= 0)
    cavs_op_copy_rows(c->rows, width, c->state + c->child_views[k] * width,
                      width, dst, ld);
  else
    cavs_op_gather(c->rows, 0, 1, c->children + k * c->rows, c->state, width,
                   dst, ld);
}

/// x = pull x; h = x·wᵀ (+ b when Bias).
template <int A, bool Bias> cavs_status pullAndScale(const cavs_call *c) {
  cavs_op_gather_rows(c->rows, c->vertices, c->pulls[0], 1, arenaRows<A>(c) + kX, A);
  cavs_op_gemm(0, 1, c->rows, 1, 1, 1.0f, arenaRows<A>(c) + kX, A, c->params[0], 1,
               0.0f, arenaRows<A>(c) + kH, A);
  if (Bias)
    for (int64_t r = 0; r < c->rows; ++r)
      arenaRows<A>(c)[r * A + kH] += c->params[1][0];
  return CAVS_OK;
}

template <int A> cavs_status nodeForwardEager(const cavs_call *c) {
  cavs_op_gather_rows(c->rows, c->vertices, c->pulls[0], 1, arenaRows<A>(c) + kX, A);
  return CAVS_OK;
}

/// h = x·wᵀ + gather(0) + gather(1); scatter(h).
template <int A> cavs_status nodeForwardBody(const cavs_call *c) {
  for (int64_t k = 0; k < 2; ++k)
    gatherChild(c, k, 1, c->scratch + k, 2);
  cavs_op_gemm(0, 1, c->rows, 1, 1, 1.0f, arenaRows<A>(c) + kX, A, c->params[0], 1,
               0.0f, arenaRows<A>(c) + kH, A);
  for (int64_t r = 0; r < c->rows; ++r)
    arenaRows<A>(c)[r * A + kH] += c->scratch[2 * r] + c->scratch[2 * r + 1];
  cavs_op_scatter(c->rows, arenaRows<A>(c) + kH, A, c->state + c->state_begin, 1);
  return CAVS_OK;
}

template <int A> cavs_status leafForwardBody(const cavs_call *c) {
  cavs_op_scatter(c->rows, arenaRows<A>(c) + kH, A, c->state + c->state_begin, 1);
  return CAVS_OK;
}

/// push y = h; loss Σ h.
template <int A> cavs_status scalarForwardLazy(const cavs_call *c) {
  cavs_op_scatter_rows(c->rows, c->vertices, arenaRows<A>(c) + kH, A, c->pushes[0], 1,
                       0);
  *c->loss += cavs_op_loss_sum(c->rows, arenaRows<A>(c) + kH, A);
  return CAVS_OK;
}

/// dh = dy + 1 (the loss).
template <int A> cavs_status scalarBackwardEager(const cavs_call *c) {
  cavs_op_gather_rows(c->rows, c->vertices, c->push_grads[0], 1, arenaRows<A>(c) + kDh,
                      A);
  for (int64_t r = 0; r < c->rows; ++r)
    arenaRows<A>(c)[r * A + kDh] += 1.0f;
  return CAVS_OK;
}

/// dh += the parents' gradient; children get dh.
template <int A, int Arity> cavs_status scalarBackwardBody(const cavs_call *c) {
  for (int64_t r = 0; r < c->rows; ++r)
    arenaRows<A>(c)[r * A + kDh] += c->state_grad[c->state_begin + r];
  for (int64_t k = 0; k < Arity; ++k)
    cavs_op_child_grad(c->rows, 0, 1, c->children + k * c->rows, arenaRows<A>(c) + kDh,
                       A, c->state_grad, 1);
  return CAVS_OK;
}

/// dx += dh·w, dw += Σ dh·x (and db += Σ dh when Bias).
template <int A, bool Bias> cavs_status scalarBackwardLazy(const cavs_call *c) {
  cavs_op_gemm(0, 0, c->rows, 1, 1, 1.0f, arenaRows<A>(c) + kDh, A, c->params[0], 1,
               0.0f, arenaRows<A>(c) + kDx, A);
  cavs_op_scatter_rows(c->rows, c->vertices, arenaRows<A>(c) + kDx, A,
                       c->pull_grads[0], 1, 1);
  cavs_op_gemm(1, 0, 1, 1, c->rows, 1.0f, arenaRows<A>(c) + kDh, A, arenaRows<A>(c) + kX, A,
               1.0f, c->grads[0], 1);
  if (Bias)
    cavs_op_column_sum(c->rows, 1, arenaRows<A>(c) + kDh, A, c->grads[1]);
  return CAVS_OK;
}

// Arena columns of embedchain: e (2), h (2), the word id, and in training
// dh (2).
constexpr int kE = 0, kCellH = 2, kWord = 4, kCellDh = 5;

/// The word ids of the call's arena rows (int32 bits in float slots).
template <int A> const int32_t *words(const cavs_call *c) {
  return reinterpret_cast<const int32_t *>(arenaRows<A>(c) + kWord);
}

/// word = pull word; e = lookup(embed, word).
template <int A> cavs_status cellForwardEager(const cavs_call *c) {
  cavs_op_gather_rows(c->rows, c->vertices, c->pulls[0], 1, arenaRows<A>(c) + kWord,
                      A);
  return cavs_op_lookup(c->rows, words<A>(c), A, c->params[0], kEmbedRows, 2,
                        arenaRows<A>(c) + kE, A);
}

/// h = e + gather(0); scatter(h).
template <int A> cavs_status cellForwardBody(const cavs_call *c) {
  gatherChild(c, 0, 2, c->scratch, 2);
  for (int64_t r = 0; r < c->rows; ++r)
    for (int64_t j = 0; j < 2; ++j)
      arenaRows<A>(c)[r * A + kCellH + j] =
          arenaRows<A>(c)[r * A + kE + j] + c->scratch[2 * r + j];
  cavs_op_scatter(c->rows, arenaRows<A>(c) + kCellH, A, c->state + 2 * c->state_begin,
                  2);
  return CAVS_OK;
}

/// push h; loss Σ h.
template <int A> cavs_status cellForwardLazy(const cavs_call *c) {
  cavs_op_scatter_rows(c->rows, c->vertices, arenaRows<A>(c) + kCellH, A, c->pushes[0],
                       2, 0);
  *c->loss += cavs_op_loss_sum(c->rows, arenaRows<A>(c) + kCellH, A) +
              cavs_op_loss_sum(c->rows, arenaRows<A>(c) + kCellH + 1, A);
  return CAVS_OK;
}

constexpr int kCellTrain = 7, kCellInfer = 5;

cavs_status cellBackwardEager(const cavs_call *c) {
  constexpr int A = kCellTrain;
  cavs_op_gather_rows(c->rows, c->vertices, c->push_grads[0], 2,
                      arenaRows<A>(c) + kCellDh, A);
  for (int64_t r = 0; r < c->rows; ++r)
    for (int64_t j = 0; j < 2; ++j)
      arenaRows<A>(c)[r * A + kCellDh + j] += 1.0f;
  return CAVS_OK;
}

cavs_status cellBackwardBody(const cavs_call *c) {
  constexpr int A = kCellTrain;
  for (int64_t r = 0; r < c->rows; ++r)
    for (int64_t j = 0; j < 2; ++j)
      arenaRows<A>(c)[r * A + kCellDh + j] +=
          c->state_grad[2 * (c->state_begin + r) + j];
  cavs_op_child_grad(c->rows, 0, 1, c->children, arenaRows<A>(c) + kCellDh, A,
                     c->state_grad, 2);
  return CAVS_OK;
}

/// d embed[word] += dh, marking the rows.
cavs_status cellBackwardLazy(const cavs_call *c) {
  constexpr int A = kCellTrain;
  if (cavs_status status =
          cavs_op_lookup_grad(c->rows, words<A>(c), A, arenaRows<A>(c) + kCellDh, A,
                              c->grads[0], kEmbedRows, 2))
    return status;
  return cavs_op_mark_rows(c->grad_store, 0, c->rows, words<A>(c), A);
}

cavs_function_desc function(const char *name, int32_t arity,
                            int64_t arenaFloats, int64_t scratchFloats,
                            std::vector<cavs_phase_fn> phases) {
  cavs_function_desc fn{};
  fn.name = name;
  fn.arity = arity;
  fn.arena_floats = arenaFloats;
  fn.scratch_floats = scratchFloats;
  for (size_t p = 0; p < phases.size(); ++p)
    fn.phases[p] = phases[p];
  return fn;
}

/// sumtree's node, arena row length 4 (train) or 2 (infer).
cavs_function_desc scalarNode(bool train) {
  if (train)
    return function("node", 2, 4, 2,
                    {nodeForwardEager<4>, nodeForwardBody<4>,
                     scalarForwardLazy<4>, scalarBackwardEager<4>,
                     scalarBackwardBody<4, 2>, scalarBackwardLazy<4, false>});
  return function(
      "node", 2, 2, 2,
      {nodeForwardEager<2>, nodeForwardBody<2>, scalarForwardLazy<2>});
}

/// A ToyModel with the scalar io (pull x, push y) on every function.
std::unique_ptr<ToyModel> scalarModel(const char *name,
                                      std::vector<cavs_function_desc> train,
                                      std::vector<cavs_function_desc> infer) {
  auto model = std::make_unique<ToyModel>();
  model->spec.name = name;
  model->spec.params = {vectorParam("w", 1, CAVS_INIT_CONSTANT, 0.5)};
  const size_t n = train.size();
  model->trainPulls.assign(n, {{"x", 0, 1, 0}});
  model->trainPushes.assign(n, {{"y", 0, 1, 0}});
  model->inferPulls = model->trainPulls;
  model->inferPushes = model->trainPushes;
  model->train = std::move(train);
  model->infer = std::move(infer);
  model->def.state_width = 1;
  return model;
}

} // namespace

void ToyModel::link() {
  desc = spec.desc();
  def.version = CAVS_PROGRAM_VERSION;
  def.has_cpu = 1;
  def.model = &desc;
  def.num_sparse_params = static_cast<int32_t>(sparseParams.size());
  def.sparse_params = sparseParams.empty() ? nullptr : sparseParams.data();
  auto linkProgram = [](std::vector<cavs_function_desc> &functions,
                        std::vector<std::vector<cavs_io_desc>> &pulls,
                        std::vector<std::vector<cavs_io_desc>> &pushes,
                        cavs_program_desc &program) {
    for (size_t f = 0; f < functions.size(); ++f) {
      functions[f].num_pulls = static_cast<int32_t>(pulls[f].size());
      functions[f].pulls = pulls[f].data();
      functions[f].num_pushes = static_cast<int32_t>(pushes[f].size());
      functions[f].pushes = pushes[f].data();
    }
    program.num_functions = static_cast<int32_t>(functions.size());
    program.functions = functions.data();
  };
  linkProgram(train, trainPulls, trainPushes, def.train);
  linkProgram(infer, inferPulls, inferPushes, def.infer);
}

std::unique_ptr<ToyModel> sumTreeModel() {
  auto model = scalarModel("sumtree", {scalarNode(true)}, {scalarNode(false)});
  model->link();
  return model;
}

std::unique_ptr<ToyModel> leafSumModel() {
  // The leaf's arena is wider than the node's, so a mix-up of arenas shows.
  cavs_function_desc trainLeaf =
      function("leaf", 0, 5, 0,
               {pullAndScale<5, true>, leafForwardBody<5>, scalarForwardLazy<5>,
                scalarBackwardEager<5>, scalarBackwardBody<5, 0>,
                scalarBackwardLazy<5, true>});
  cavs_function_desc inferLeaf = function(
      "leaf", 0, 2, 0,
      {pullAndScale<2, true>, leafForwardBody<2>, scalarForwardLazy<2>});
  auto model = scalarModel("leafsum", {trainLeaf, scalarNode(true)},
                           {inferLeaf, scalarNode(false)});
  model->spec.params.push_back(vectorParam("b", 1, CAVS_INIT_CONSTANT, 0.25));
  model->link();
  return model;
}

std::unique_ptr<ToyModel> embedChainModel() {
  auto model = std::make_unique<ToyModel>();
  model->spec.name = "embedchain";
  model->spec.params = {
      matrixParam("embed", kEmbedRows, 2, CAVS_INIT_UNIFORM, -1.0, 1.0)};
  model->trainPulls = {{{"word", 1, 1, 0}}};
  model->trainPushes = {{{"h", 0, 2, 0}}};
  model->inferPulls = model->trainPulls;
  model->inferPushes = model->trainPushes;
  model->train = {
      function("cell", 1, kCellTrain, 2,
               {cellForwardEager<kCellTrain>, cellForwardBody<kCellTrain>,
                cellForwardLazy<kCellTrain>, cellBackwardEager,
                cellBackwardBody, cellBackwardLazy})};
  model->infer = {
      function("cell", 1, kCellInfer, 2,
               {cellForwardEager<kCellInfer>, cellForwardBody<kCellInfer>,
                cellForwardLazy<kCellInfer>})};
  model->sparseParams = {0};
  model->def.state_width = 2;
  model->link();
  return model;
}

} // namespace cavs::test
