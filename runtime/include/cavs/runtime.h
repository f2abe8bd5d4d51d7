//===- runtime.h - the public C ABI of the cavs runtime -------------------===//
//
// Umbrella header: include this one. The runtime is a thin C++17 library
// behind a C ABI (opaque handles, stable structs, cavs_status codes and a
// thread-local error message), so that generated model libraries, C and C++
// applications can all use it; cavs/runtime.hpp wraps it for C++.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_H
#define CAVS_RUNTIME_H

#include "cavs/status.h"

#include "cavs/checkpoint.h"
#include "cavs/dist.h"
#include "cavs/graph.h"
#include "cavs/instance.h"
#include "cavs/loaders.h"
#include "cavs/model.h"
#include "cavs/optim.h"
#include "cavs/safetensors.h"
#include "cavs/schedule.h"
#include "cavs/vocab.h"
#include "cavs/word_vectors.h"

#endif // CAVS_RUNTIME_H
