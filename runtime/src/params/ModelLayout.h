//===- ModelLayout.h - the validated layout of a model's parameters -------===//
//
// ModelLayout is what the runtime keeps of a model descriptor: names, shapes,
// initializers and the offset of every parameter and pack in the flat
// buffer. It is immutable and shared (shared_ptr) by the parameter store,
// gradient stores and optimizers of the model, so none of them depends on
// the lifetime of the descriptor or of each other.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_PARAMS_MODELLAYOUT_H
#define CAVS_RUNTIME_PARAMS_MODELLAYOUT_H

#include "cavs/model.h"
#include "support/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cavs::runtime {

/// How a parameter is initialised.
struct ParamInit {
  cavs_init_kind kind = CAVS_INIT_ZEROS;
  double args[2] = {0, 0};
};

/// The layout of a model's parameters. Not copyable or movable: the
/// `name` pointers of the info structs point into its own strings.
class ModelLayout {
public:
  ModelLayout(const ModelLayout &) = delete;
  ModelLayout &operator=(const ModelLayout &) = delete;

  /// Validates `desc` (see cavs/model.h) and computes its layout.
  static Status build(const cavs_model_desc &desc,
                      std::shared_ptr<const ModelLayout> &out);

  const std::string &name() const { return name_; }
  uint64_t signature() const { return signature_; }
  /// Floats in the flat buffer, padding included (a multiple of
  /// CAVS_PARAM_ALIGNMENT).
  int64_t size() const { return size_; }

  int32_t numParams() const { return static_cast<int32_t>(params_.size()); }
  const cavs_param_info &param(int32_t index) const { return params_[index]; }
  /// The parameter indices by increasing offset: declaration order, but
  /// each pack's members together.
  const std::vector<int32_t> &storageOrder() const { return storageOrder_; }
  const ParamInit &init(int32_t index) const { return inits_[index]; }
  /// Index of the parameter called `name`, or -1.
  int32_t findParam(std::string_view name) const;

  int32_t numPacks() const { return static_cast<int32_t>(packs_.size()); }
  const cavs_pack_info &pack(int32_t index) const { return packs_[index]; }
  /// Index of the pack called `name`, or -1.
  int32_t findPack(std::string_view name) const;

  /// Whether `other` describes the same model: same signature and the same
  /// parameters (names, shapes, offsets), so flat buffers are interchangeable.
  bool sameModel(const ModelLayout &other) const;

private:
  ModelLayout() = default;
  Status setModel(const cavs_model_desc &desc);
  Status addParams(const cavs_model_desc &desc);
  Status addPacks(const cavs_model_desc &desc);
  void assignOffsets();

  std::string name_;
  uint64_t signature_ = 0;
  int64_t size_ = 0;
  // Owns the names the info structs point to; filled completely before any
  // pointer is taken, so it never reallocates afterwards.
  std::vector<std::string> names_;
  std::vector<cavs_param_info> params_;
  std::vector<ParamInit> inits_;
  std::vector<cavs_pack_info> packs_;
  // The members of each pack (the info structs point into them).
  std::vector<std::vector<int32_t>> members_;
  std::vector<int32_t> storageOrder_;
  std::unordered_map<std::string_view, int32_t> paramIndex_, packIndex_;
};

/// Fails with CAVS_ERROR_INVALID_ARGUMENT unless `actual` describes the model
/// of `expected`; `what` names the object `actual` is the layout of ("the
/// gradient store", ...).
Status requireSameModel(const ModelLayout &expected, const ModelLayout &actual,
                        std::string_view what);

/// "[150, 300]" or "[5]".
std::string formatShape(int32_t rank, const int64_t *shape);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_PARAMS_MODELLAYOUT_H
