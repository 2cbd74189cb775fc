#ifndef XSTITCH_DRIVER_NVIDIABACKENDS_H
#define XSTITCH_DRIVER_NVIDIABACKENDS_H

// The NVPTX backend (backends/nvptx) registered with the compile driver
// (Backends.cpp), for three platforms: present GPUs ("cuda", their
// limits queried), presets ("nvptx": sm_90, compiled without a GPU), and
// the simulation ("nvptx-sim": the code for a preset, lowered to host code).

#include "driver/Backend.h"

namespace xs {

const Backend &nvidiaGpuBackend();
const Backend &nvidiaPresetBackend();
const Backend &nvptxSimulationBackend();

} // namespace xs

#endif // XSTITCH_DRIVER_NVIDIABACKENDS_H
