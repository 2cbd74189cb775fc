#ifndef XSTITCH_DRIVER_AMDBACKENDS_H
#define XSTITCH_DRIVER_AMDBACKENDS_H

// The AMDGPU backend (backends/amdgpu) registered with the compile driver
// (Backends.cpp), for three platforms: present GPUs ("hip", their limits
// queried through HIP), presets ("amdgpu": gfx942, compiled without a GPU
// into HSA code objects) and the simulation ("amdgpu-sim": the code for a
// preset, lowered to host code).

#include "driver/Backend.h"

namespace xs {

const Backend &amdGpuBackend();
const Backend &amdgpuPresetBackend();
const Backend &amdgpuSimulationBackend();

} // namespace xs

#endif // XSTITCH_DRIVER_AMDBACKENDS_H
