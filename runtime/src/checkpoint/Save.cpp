//===- Save.cpp - writing checkpoints -------------------------------------===//
//
// One encoder writes the whole format (always the newest version) to a
// sink; it runs twice, first into a counter to learn the file length that
// the header records, then into the temporary file while the checksum
// accumulates, so the length can never disagree with the data.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/Checkpoint.h"

#include "checkpoint/Crc32c.h"
#include "checkpoint/Format.h"
#include "optim/Options.h"
#include "support/AtomicFile.h"

#include <string_view>

namespace cavs::runtime {

using namespace checkpoint;

namespace {

/// Counts the bytes of a checkpoint.
struct CountingSink {
  uint64_t size = 0;
  void put(const void *, size_t bytes) { size += bytes; }
};

/// Checksums bytes and writes them to a file; keeps the first error.
class FileSink {
public:
  explicit FileSink(AtomicFileWriter &file) : file_(file) {}
  void put(const void *data, size_t size) {
    if (!status_.ok())
      return;
    crc_.update(data, size);
    status_ = file_.write(data, size);
  }
  const Status &status() const { return status_; }
  uint32_t checksum() const { return crc_.value(); }

private:
  AtomicFileWriter &file_;
  Crc32c crc_;
  Status status_;
};

/// Writes the fields of the format (little-endian, see Format.h) to a sink.
template <typename Sink> class Encoder {
public:
  explicit Encoder(Sink &sink) : sink_(sink) {}

  void bytes(const void *data, size_t size) { sink_.put(data, size); }
  void u32(uint32_t value) { bytes(&value, sizeof value); }
  void u64(uint64_t value) { bytes(&value, sizeof value); }
  void f64(double value) { bytes(&value, sizeof value); }
  /// u32 length, then the bytes (no terminator).
  void string(std::string_view text) {
    u32(static_cast<uint32_t>(text.size()));
    bytes(text.data(), text.size());
  }
  /// A tensor record: name, rank, shape, dtype, byte length, data.
  void tensor(const cavs_param_info &info, const float *values) {
    string(info.name);
    u32(static_cast<uint32_t>(info.rank));
    for (int32_t d = 0; d < info.rank; ++d)
      u64(static_cast<uint64_t>(info.shape[d]));
    u32(kDtypeF32);
    const uint64_t size = static_cast<uint64_t>(info.size) * sizeof(float);
    u64(size);
    bytes(values, size);
  }

private:
  Sink &sink_;
};

/// The optimizer kind and, unless it is kNoOptimizer, the optimizer section.
template <typename Sink>
void encodeOptimizer(Encoder<Sink> &out, const ModelLayout &layout,
                     const Optimizer *optimizer) {
  if (!optimizer) {
    out.u32(kNoOptimizer);
    return;
  }
  const cavs_optimizer_options &options = optimizer->options();
  out.u32(static_cast<uint32_t>(options.kind));
  out.u64(static_cast<uint64_t>(optimizer->stepCount()));
  const std::vector<Hyperparameter> values = hyperparameters(options);
  out.u32(static_cast<uint32_t>(values.size()));
  for (const Hyperparameter &value : values) {
    out.string(value.name);
    out.f64(value.value);
  }
  const std::vector<const char *> slots = slotNames(options);
  out.u32(static_cast<uint32_t>(slots.size()));
  for (size_t s = 0; s < slots.size(); ++s) {
    out.string(slots[s]);
    out.u32(static_cast<uint32_t>(layout.numParams()));
    const float *state = optimizer->slots()[s].data();
    for (int32_t i = 0; i < layout.numParams(); ++i)
      out.tensor(layout.param(i), state + layout.param(i).offset);
  }
}

/// The training-state section: the field count (0 without a state), the
/// fields.
template <typename Sink>
void encodeTrainState(Encoder<Sink> &out, const TrainState *state) {
  const std::vector<TrainField> none;
  const std::vector<TrainField> &fields = state ? state->fields() : none;
  out.u32(static_cast<uint32_t>(fields.size()));
  for (const TrainField &field : fields) {
    out.string(field.name);
    out.u32(static_cast<uint32_t>(field.type));
    out.u64(field.bits);
  }
}

/// Everything but the trailing checksum.
template <typename Sink>
void encode(Sink &sink, uint64_t fileLength, const ParamStore &params,
            const Optimizer *optimizer, const TrainState *state) {
  Encoder<Sink> out(sink);
  const ModelLayout &layout = params.layout();
  out.bytes(kMagic, sizeof kMagic);
  out.u32(kFormatVersion);
  out.u64(fileLength);
  out.u64(layout.signature());
  out.string(layout.name());
  out.u32(static_cast<uint32_t>(layout.numParams()));
  for (int32_t i = 0; i < layout.numParams(); ++i)
    out.tensor(layout.param(i), params.param(i));
  encodeOptimizer(out, layout, optimizer);
  encodeTrainState(out, state);
}

} // namespace

Status saveCheckpoint(const std::string &path, const ParamStore &params,
                      const Optimizer *optimizer, const TrainState *state) {
  if (optimizer)
    CAVS_RETURN_IF_ERROR(requireSameModel(params.layout(), optimizer->layout(),
                                          "the optimizer"));
  CountingSink counter;
  encode(counter, 0, params, optimizer, state);
  AtomicFileWriter file(path, "checkpoint");
  CAVS_RETURN_IF_ERROR(file.open());
  FileSink sink(file);
  encode(sink, counter.size + kChecksumSize, params, optimizer, state);
  CAVS_RETURN_IF_ERROR(sink.status());
  const uint32_t checksum = sink.checksum();
  CAVS_RETURN_IF_ERROR(file.write(&checksum, sizeof checksum));
  return file.commit();
}

} // namespace cavs::runtime
