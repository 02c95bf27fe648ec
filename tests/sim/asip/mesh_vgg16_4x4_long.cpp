// VGG-16 on the 4x4 mesh (14 ASIP cores, waving): invariants and per-layer exact flits / MACs.
// Performance target of issue 6: under 5 minutes wall. Label `long`.
#include "mesh_run.h"

int sc_main(int, char**) { return mesh_test::run_network("mesh-4x4.yaml", "vgg16.json", {}, 300.0); }
