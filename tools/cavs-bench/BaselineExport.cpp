//===- BaselineExport.cpp - inputs of the PyTorch baselines --------------===//
#include "BaselineExport.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cavs::bench {

namespace {

/// Writes `size` elements of `data` raw (the baselines read little-endian,
/// which every machine cavs runs on is).
template <typename T>
void writeRaw(std::ofstream &out, const T *data, size_t size) {
  out.write(reinterpret_cast<const char *>(data),
            std::streamsize(size * sizeof(T)));
}

std::ofstream openOrThrow(const std::string &path) {
  std::ofstream out(path, std::ios::binary);
  if (!out)
    throw std::runtime_error("cannot write " + path);
  return out;
}

void closeOrThrow(std::ofstream &out, const std::string &path) {
  out.close();
  if (!out)
    throw std::runtime_error("cannot write " + path);
}

/// A double exactly as the C++ side holds it (1e-10 must not become 0).
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

/// Sample offsets, types, child slots padded to the largest arity, then
/// every attribute.
void writeBatch(const std::string &path, const cavs::GraphBatch &batch) {
  std::ofstream out = openOrThrow(path);
  const cavs::Span<const int32_t> offsets = batch.sampleOffsets();
  writeRaw(out, offsets.data(), offsets.size());
  writeRaw(out, batch.types().data(), size_t(batch.numVertices()));
  const size_t maxArity = size_t(batch.maxArity());
  std::vector<int32_t> slots;
  slots.reserve(size_t(batch.numVertices()) * maxArity);
  for (int32_t v = 0; v < batch.numVertices(); ++v) {
    const cavs::Span<const int32_t> children = batch.children(v);
    for (size_t k = 0; k < maxArity; ++k)
      slots.push_back(k < children.size() ? children[k] : CAVS_NO_CHILD);
  }
  writeRaw(out, slots.data(), slots.size());
  for (int32_t a = 0; a < batch.numAttributes(); ++a)
    writeRaw(out, cavs_graph_batch_attribute(batch.get(), a),
             size_t(batch.numVertices()));
  closeOrThrow(out, path);
}

/// params.f32 and the manifest's "params" list.
std::string writeParams(const std::string &path, cavs::Model &model) {
  std::ofstream out = openOrThrow(path);
  std::ostringstream list;
  int64_t offset = 0;
  cavs_param_store *store = model.params();
  for (int32_t p = 0; p < cavs_param_store_num_params(store); ++p) {
    const cavs_param_info &info = *cavs_param_store_param(store, p);
    list << (p ? ",\n  " : "\n  ") << "{\"name\": \"" << info.name
         << "\", \"shape\": [" << info.shape[0];
    if (info.rank == 2)
      list << ", " << info.shape[1];
    list << "], \"offset\": " << offset << "}";
    writeRaw(out, cavs_param_store_param_data(store, p), size_t(info.size));
    offset += info.size;
  }
  closeOrThrow(out, path);
  return list.str();
}

} // namespace

void exportBaselineInputs(const std::string &folder, const ExportHeader &header,
                          cavs::Model &model,
                          const std::vector<cavs::GraphBatch> &batches,
                          size_t count) {
  const cavs::GraphBatch &first = batches.front();
  std::ostringstream manifest;
  const cavs_optimizer_options &o = header.optimizer;
  manifest << "{\"format\": 1, \"workload\": \"" << header.workload
           << "\", \"model\": \"" << cavs_param_store_model_name(model.params())
           << "\", \"hidden\": " << header.hidden
           << ", \"batch_size\": " << header.batchSize
           << ",\n \"optimizer\": {\"kind\": \""
           << (o.kind == CAVS_OPTIMIZER_ADAGRAD ? "adagrad" : "other")
           << "\", \"learning_rate\": " << number(o.learning_rate)
           << ", \"epsilon\": " << number(o.epsilon)
           << ", \"weight_decay\": " << number(o.weight_decay)
           << ", \"clip_norm\": " << number(o.clip_norm) << "},\n \"params\": ["
           << writeParams(folder + "/params.f32", model)
           << "],\n \"arities\": [";
  for (int32_t t = 0; t < first.numTypes(); ++t)
    manifest << (t ? ", " : "") << first.arity(t);
  manifest << "],\n \"attributes\": [";
  for (int32_t a = 0; a < first.numAttributes(); ++a)
    manifest << (a ? ", " : "") << "\""
             << cavs_graph_batch_attribute_name(first.get(), a) << "\"";
  manifest << "],\n \"batches\": [";
  for (size_t b = 0; b < count; ++b) {
    char file[32];
    std::snprintf(file, sizeof file, "batch-%03zu.i32", b);
    writeBatch(folder + "/" + file, batches[b]);
    manifest << (b ? ",\n  " : "\n  ") << "{\"file\": \"" << file
             << "\", \"samples\": " << batches[b].numSamples()
             << ", \"vertices\": " << batches[b].numVertices() << "}";
  }
  manifest << "]}\n";
  std::ofstream out = openOrThrow(folder + "/manifest.json");
  out << manifest.str();
  closeOrThrow(out, folder + "/manifest.json");
}

} // namespace cavs::bench
