//===- LayeringProbe.cpp - an include as one runtime layer sees it --------===//
//
// Compiled by the runtime-layering tests (CMakeLists.txt) with the include
// folders of one layer of the runtime: the header CAVS_LAYERING_INCLUDE
// names compiles when the layer may see it and is not found when it sits
// in a layer above.
//
//===----------------------------------------------------------------------===//
#include CAVS_LAYERING_INCLUDE
