//===- CheckpointBytes.cpp - an independent checkpoint encoder for tests --===//
//
// Fields are appended byte by byte in little-endian order, the way the
// format table of docs/runtime.md reads.
//
//===----------------------------------------------------------------------===//
#include "CheckpointBytes.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace cavs::test {

namespace {

void putU32(std::string &out, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out += char((value >> (8 * i)) & 0xff);
}

void putU64(std::string &out, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out += char((value >> (8 * i)) & 0xff);
}

void putF64(std::string &out, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  putU64(out, bits);
}

void putString(std::string &out, const std::string &text) {
  putU32(out, uint32_t(text.size()));
  out += text;
}

void putTensor(std::string &out, const TensorSpec &tensor) {
  putU32(out, tensor.nameLength >= 0 ? uint32_t(tensor.nameLength)
                                     : uint32_t(tensor.name.size()));
  out += tensor.name;
  putU32(out, uint32_t(tensor.shape.size()));
  for (uint64_t dimension : tensor.shape)
    putU64(out, dimension);
  putU32(out, tensor.dtype);
  putU64(out, tensor.byteLength >= 0 ? uint64_t(tensor.byteLength)
                                     : 4 * tensor.values.size());
  for (float value : tensor.values) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    putU32(out, bits);
  }
}

void putTensors(std::string &out, const std::vector<TensorSpec> &tensors) {
  putU32(out, uint32_t(tensors.size()));
  for (const TensorSpec &tensor : tensors)
    putTensor(out, tensor);
}

} // namespace

uint32_t referenceCrc32c(const std::string &bytes) {
  uint32_t crc = 0xffffffffu;
  for (unsigned char byte : bytes) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc >> 1) ^ (crc & 1 ? 0x82f63b78u : 0);
  }
  return ~crc;
}

std::string encodeCheckpoint(const CheckpointSpec &spec) {
  std::string body;
  putString(body, spec.model);
  putTensors(body, spec.params);
  putU32(body, spec.optimizerKind);
  if (spec.optimizerKind != 0) {
    putU64(body, spec.stepCount);
    putU32(body, uint32_t(spec.hyperparameters.size()));
    for (const auto &[name, value] : spec.hyperparameters) {
      putString(body, name);
      putF64(body, value);
    }
    putU32(body, uint32_t(spec.slots.size()));
    for (const SlotSpec &slot : spec.slots) {
      putString(body, slot.name);
      putTensors(body, slot.tensors);
    }
  }
  if (spec.version >= 2) {
    putU32(body, uint32_t(spec.trainState.size()));
    for (const TrainFieldSpec &field : spec.trainState) {
      putString(body, field.name);
      putU32(body, field.type);
      putU64(body, field.bits);
    }
  }
  body += spec.junk;

  std::string file = "CAVSCKPT";
  putU32(file, spec.version);
  putU64(file, 28 + body.size() + 4);
  putU64(file, spec.signature);
  file += body;
  putU32(file, referenceCrc32c(file));
  return file;
}

std::vector<TensorSpec> tensorsOf(ParamStore &params, Span<const float> data) {
  std::vector<TensorSpec> tensors;
  for (int32_t i = 0; i < params.numParams(); ++i) {
    const cavs_param_info &info = params.param(i);
    TensorSpec tensor;
    tensor.name = info.name;
    for (int32_t d = 0; d < info.rank; ++d)
      tensor.shape.push_back(uint64_t(info.shape[d]));
    tensor.values.assign(data.begin() + info.offset,
                         data.begin() + info.offset + info.size);
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

CheckpointSpec paramsSpec(ParamStore &params) {
  CheckpointSpec spec;
  spec.signature = params.signature();
  spec.model = params.modelName();
  Span<float> data = params.data();
  spec.params = tensorsOf(params, {data.data(), data.size()});
  return spec;
}

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

} // namespace cavs::test
