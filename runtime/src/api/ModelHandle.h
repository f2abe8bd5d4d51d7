//===- ModelHandle.h - the object behind the opaque cavs_model ------------===//
//
// Shared by the instance API and the distributed trainer, which drives the
// instance's gradient listener and device directly.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_API_MODELHANDLE_H
#define CAVS_RUNTIME_API_MODELHANDLE_H

#include "exec/Instance.h"

struct cavs_model {
  cavs::runtime::ModelInstance impl;
};

#endif // CAVS_RUNTIME_API_MODELHANDLE_H
