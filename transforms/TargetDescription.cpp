#include "transforms/TargetDescription.h"

namespace xs {

TargetDescription genericCpuTarget() {
  TargetDescription t;
  t.name = "generic-cpu";
  t.lanesPerBlock = 8;
  t.warpWidth = 8;
  t.blockBufferBytes = 256 * 1024;
  t.parallelUnits = 2;
  t.vectorBytes = 32;
  t.minElementsPerBlock = 16384;
  t.packedRowElements = 256;
  t.resultTilesAsBlockBuffers = true;
  t.resultTileMinBytes = 8 * 1024;
  t.tasksPerUnit = 4;
  t.keepsWidenedHalves = true;
  t.stitchesColumnStrips = true;
  return t;
}

} // namespace xs
