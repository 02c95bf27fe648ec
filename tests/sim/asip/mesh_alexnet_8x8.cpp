// AlexNet on the 8x8 mesh (62 ASIP cores, waving): invariants and per-layer exact flits / MACs.
// Performance target of issue 6: under 60 s wall.
#include "mesh_run.h"

int sc_main(int, char**) { return mesh_test::run_network("mesh-8x8.yaml", "alexnet.json", {}, 60.0); }
