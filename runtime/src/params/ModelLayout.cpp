//===- ModelLayout.cpp - descriptor validation and flat-buffer layout -----===//
//
// Checks every field of a model descriptor (it crosses the C ABI and may be
// written by hand) and assigns offsets: declaration order, each tensor
// aligned to CAVS_PARAM_ALIGNMENT floats, except that a pack's members are
// placed together, each after its predecessor, so the pack is one tensor.
//
//===----------------------------------------------------------------------===//
#include "params/ModelLayout.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cavs::runtime {

namespace {

/// Rows are indexed by int32; the flat buffer's bound is far above any real
/// model (cavs/model.h).
constexpr int64_t kMaxDimension = CAVS_MAX_DIMENSION;
constexpr int64_t kMaxElements = CAVS_MAX_PARAM_ELEMENTS;

int64_t roundUp(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

bool isValidKind(cavs_init_kind kind) {
  switch (kind) {
#define CAVS_INIT_KIND(keyword, NAME, value, args) case CAVS_INIT_##NAME:
#include "cavs/init_kinds.def"
    return true;
  default:
    return false;
  }
}

/// Whether `x` is a finite f32: the values are stored as f32, and a bound
/// of 1e39 (finite as a double) made every value infinite.
bool finiteF32(double x) {
  return std::fabs(x) <= std::numeric_limits<float>::max();
}

/// Checks the numbers the initializer of parameter `name` uses.
Status checkInit(const std::string &model, const char *name,
                 const cavs_param_desc &param) {
  const double a = param.init_args[0], b = param.init_args[1];
  switch (param.init) {
  case CAVS_INIT_CONSTANT:
    if (!finiteF32(a))
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter '{}': the constant initializer "
                       "needs a finite f32 value, got {}",
                       model, name, a);
    break;
  case CAVS_INIT_UNIFORM:
    if (!finiteF32(a) || !finiteF32(b) || !(a < b))
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter '{}': the uniform initializer "
                       "needs finite f32 bounds lo < hi, got [{}, {}]",
                       model, name, a, b);
    break;
  case CAVS_INIT_NORMAL:
    if (!finiteF32(a) || !finiteF32(b) || !(b > 0))
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter '{}': the normal initializer "
                       "needs a finite f32 mean and a finite f32 standard "
                       "deviation > 0, got mean {} and deviation {}",
                       model, name, a, b);
    if (!finiteF32(std::fabs(a) + CAVS_NORMAL_INIT_DEVIATIONS * b))
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter '{}': the normal initializer "
                       "draws up to 9 deviations from the mean, past f32 "
                       "for mean {} and deviation {} (values would be inf)",
                       model, name, a, b);
    break;
  default:
    break;
  }
  return Status();
}

} // namespace

std::string formatShape(int32_t rank, const int64_t *shape) {
  return rank == 1 ? fmt::format("[{}]", shape[0])
                   : fmt::format("[{}, {}]", shape[0], shape[1]);
}

Status ModelLayout::build(const cavs_model_desc &desc,
                          std::shared_ptr<const ModelLayout> &out) {
  std::shared_ptr<ModelLayout> layout(new ModelLayout());
  CAVS_RETURN_IF_ERROR(layout->setModel(desc));
  CAVS_RETURN_IF_ERROR(layout->addParams(desc));
  CAVS_RETURN_IF_ERROR(layout->addPacks(desc));
  layout->assignOffsets();
  out = std::move(layout);
  return Status();
}

Status ModelLayout::setModel(const cavs_model_desc &desc) {
  if (desc.version != CAVS_MODEL_DESC_VERSION)
    return makeError(CAVS_ERROR_UNSUPPORTED,
                     "model descriptor version {} is not supported; this "
                     "runtime reads version {}",
                     desc.version, CAVS_MODEL_DESC_VERSION);
  if (!desc.name || !*desc.name)
    return Status(CAVS_ERROR_INVALID_ARGUMENT,
                  "the model descriptor has no name");
  name_ = desc.name;
  signature_ = desc.signature;
  if (desc.num_params < 0 || desc.num_packs < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "model '{}' has a negative count ({} parameters, {} "
                     "packs)",
                     name_, desc.num_params, desc.num_packs);
  if ((desc.num_params > 0 && !desc.params) ||
      (desc.num_packs > 0 && !desc.packs))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "model '{}': params and packs must not be NULL when "
                     "their count is positive",
                     name_);
  // Reserved once, so the strings never move and views of them stay valid.
  names_.reserve(size_t(desc.num_params) + size_t(desc.num_packs));
  return Status();
}

Status ModelLayout::addParams(const cavs_model_desc &desc) {
  int64_t total = 0;
  for (int32_t i = 0; i < desc.num_params; ++i) {
    const cavs_param_desc &param = desc.params[i];
    if (!param.name || !*param.name)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter {} has no name", name_, i);
    const char *name = param.name;
    if (findParam(name) >= 0)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter {} repeats the name '{}'", name_,
                       i, name);
    if (param.rank != 1 && param.rank != 2)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter '{}' has rank {}; parameters "
                       "are vectors or matrices (rank 1 or 2)",
                       name_, name, param.rank);
    for (int32_t d = 0; d < param.rank; ++d)
      if (param.shape[d] < 1 || param.shape[d] > kMaxDimension)
        return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                         "model '{}': parameter '{}' has shape {}; every "
                         "dimension must be in [1, {}]",
                         name_, name, formatShape(param.rank, param.shape),
                         kMaxDimension);
    if (param.rank == 1 && param.shape[1] != 0)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter '{}' is a vector, so shape[1] "
                       "must be 0, not {}",
                       name_, name, param.shape[1]);
    if (!isValidKind(param.init))
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': parameter '{}' has the unknown "
                       "initializer kind {}",
                       name_, name, static_cast<int32_t>(param.init));
    CAVS_RETURN_IF_ERROR(checkInit(name_, name, param));

    cavs_param_info info{};
    info.name = names_.emplace_back(name).c_str();
    info.rank = param.rank;
    info.pack = -1;
    info.shape[0] = param.shape[0];
    info.shape[1] = param.rank == 2 ? param.shape[1] : 0;
    info.size =
        param.rank == 2 ? param.shape[0] * param.shape[1] : param.shape[0];
    // Each tensor may add up to one alignment of padding.
    total += info.size + CAVS_PARAM_ALIGNMENT;
    if (total > kMaxElements)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}' has more than {} parameter elements", name_,
                       kMaxElements);
    paramIndex_.emplace(info.name, i);
    params_.push_back(info);
    inits_.push_back({param.init, {param.init_args[0], param.init_args[1]}});
  }
  return Status();
}

Status ModelLayout::addPacks(const cavs_model_desc &desc) {
  members_.resize(size_t(desc.num_packs));
  for (int32_t k = 0; k < desc.num_packs; ++k) {
    const cavs_pack_desc &pack = desc.packs[k];
    if (!pack.name || !*pack.name)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': pack {} has no name", name_, k);
    if (findParam(pack.name) >= 0 || findPack(pack.name) >= 0)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': pack {} repeats the name '{}'", name_, k,
                       pack.name);
    if (pack.num_params < 1)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': pack '{}' has {} members; it needs at "
                       "least one",
                       name_, pack.name, pack.num_params);
    if (!pack.members)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "model '{}': pack '{}' has {} members but members is "
                       "NULL",
                       name_, pack.name, pack.num_params);
    cavs_pack_info info{};
    info.name = names_.emplace_back(pack.name).c_str();
    info.num_params = pack.num_params;
    for (int32_t m = 0; m < pack.num_params; ++m) {
      const int32_t index = pack.members[m];
      if (index < 0 || index >= numParams())
        return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                         "model '{}': member {} of pack '{}' is parameter {}, "
                         "out of range; the model has {} parameters",
                         name_, m, info.name, index, numParams());
      cavs_param_info &member = params_[index];
      if (member.pack == k)
        return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                         "model '{}': pack '{}' lists parameter '{}' twice",
                         name_, info.name, member.name);
      if (member.pack >= 0)
        return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                         "model '{}': parameter '{}' is in two packs, '{}' "
                         "and '{}'",
                         name_, member.name, packs_[member.pack].name,
                         info.name);
      const cavs_param_info &first = params_[pack.members[0]];
      if (member.rank != first.rank || member.shape[1] != first.shape[1])
        return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                         "model '{}': pack '{}' cannot stack '{}' {} and '{}' "
                         "{}; members are all vectors or all matrices with "
                         "equal column counts",
                         name_, info.name, first.name,
                         formatShape(first.rank, first.shape), member.name,
                         formatShape(member.rank, member.shape));
      member.pack = k;
      members_[k].push_back(index);
      info.shape[0] += member.shape[0];
      info.size += member.size;
    }
    info.rank = params_[pack.members[0]].rank;
    info.shape[1] = params_[pack.members[0]].shape[1];
    packIndex_.emplace(info.name, k);
    packs_.push_back(info);
  }
  return Status();
}

void ModelLayout::assignOffsets() {
  // Declaration order, except that a pack is placed whole, in its own
  // order, where its first declared member comes.
  for (int32_t i = 0; i < numParams(); ++i) {
    if (params_[i].pack < 0) {
      storageOrder_.push_back(i);
      continue;
    }
    const std::vector<int32_t> &members = members_[params_[i].pack];
    if (*std::min_element(members.begin(), members.end()) == i)
      storageOrder_.insert(storageOrder_.end(), members.begin(), members.end());
  }
  int64_t cursor = 0;
  for (int32_t i : storageOrder_) {
    cavs_param_info &param = params_[i];
    const bool followsPackMate =
        param.pack >= 0 && members_[param.pack].front() != i;
    if (!followsPackMate)
      cursor = roundUp(cursor, CAVS_PARAM_ALIGNMENT);
    param.offset = cursor;
    cursor += param.size;
  }
  size_ = roundUp(cursor, CAVS_PARAM_ALIGNMENT);
  for (size_t k = 0; k < packs_.size(); ++k) {
    packs_[k].members = members_[k].data();
    packs_[k].offset = params_[members_[k].front()].offset;
  }
}

int32_t ModelLayout::findParam(std::string_view name) const {
  auto it = paramIndex_.find(name);
  return it == paramIndex_.end() ? -1 : it->second;
}

int32_t ModelLayout::findPack(std::string_view name) const {
  auto it = packIndex_.find(name);
  return it == packIndex_.end() ? -1 : it->second;
}

bool ModelLayout::sameModel(const ModelLayout &other) const {
  if (this == &other)
    return true;
  if (signature_ != other.signature_ || size_ != other.size_ ||
      numParams() != other.numParams())
    return false;
  for (int32_t i = 0; i < numParams(); ++i) {
    const cavs_param_info &a = params_[i], &b = other.params_[i];
    if (std::string_view(a.name) != b.name || a.rank != b.rank ||
        a.shape[0] != b.shape[0] || a.shape[1] != b.shape[1] ||
        a.offset != b.offset)
      return false;
  }
  return true;
}

Status requireSameModel(const ModelLayout &expected, const ModelLayout &actual,
                        std::string_view what) {
  if (expected.sameModel(actual))
    return Status();
  // Builds of one model with other flags or parameter order share name and
  // signature but not the layout of the parameter buffer.
  if (expected.signature() == actual.signature() &&
      std::string_view(expected.name()) == actual.name())
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "{} belongs to another build of model '{}' (signature "
                     "{:#018x}) whose parameters are laid out differently "
                     "(other packs or order); use the optimizer, store or "
                     "gradients made for this build (a checkpoint carries "
                     "parameters between builds)",
                     what, expected.name(), expected.signature());
  return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                   "{} belongs to model '{}' (signature {:#018x}), not to "
                   "model '{}' (signature {:#018x})",
                   what, actual.name(), actual.signature(), expected.name(),
                   expected.signature());
}

} // namespace cavs::runtime
