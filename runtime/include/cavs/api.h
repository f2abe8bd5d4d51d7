//===- api.h - export and linkage macros of the cavs C ABI ----------------===//
//
// Every public header of the runtime includes this one. The runtime is built
// with hidden visibility, so only declarations marked CAVS_API are exported
// from libcavs_runtime; the extern "C" guards keep the ABI usable from C.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_API_H
#define CAVS_API_H

/// Marks a function of the public C ABI (exported from the shared library).
#define CAVS_API __attribute__((visibility("default")))

#ifdef __cplusplus
#define CAVS_EXTERN_C_BEGIN extern "C" {
#define CAVS_EXTERN_C_END }
#else
#define CAVS_EXTERN_C_BEGIN
#define CAVS_EXTERN_C_END
#endif

#endif // CAVS_API_H
