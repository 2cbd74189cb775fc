#ifndef XSTITCH_TOOLS_COMMON_TENSORCOMPARE_H
#define XSTITCH_TOOLS_COMMON_TENSORCOMPARE_H

// Comparing a computed tensor with an expected one, and summarizing a tensor
// for people at a terminal.

#include <string>
#include <vector>

#include "ir/HostTensor.h"

namespace xs {

struct Tolerance {
  double atol;
  double rtol;
};

/// Defaults right for the dtype: f64 1e-12/1e-12, f32 1e-5/1e-4, f16 1e-3/1e-2,
/// bf16 1e-2/5e-2, integers and i1 exact.
Tolerance defaultTolerance(ElementType t);

struct ElementDiff {
  int64_t index; // flat index
  double actual;
  double expected;
  double error; // |actual - expected| / (atol + rtol * |expected|); > 1 fails
};

struct CompareResult {
  bool shapeMatches = true;
  int64_t mismatches = 0;
  int64_t total = 0;
  double maxAbsError = 0;
  std::vector<ElementDiff> worst; // largest relative-to-tolerance errors first
  bool passed() const { return shapeMatches && mismatches == 0; }
};

/// Element-wise |a - e| <= atol + rtol * |e|; NaN equals NaN, inf equals the
/// same inf. Keeps the `keepWorst` worst elements.
CompareResult compareTensors(const HostTensor &actual, const HostTensor &expected, Tolerance tol,
                             int keepWorst = 5);

/// `[3, 17]` for a flat index in `shape`.
std::string formatIndex(int64_t flat, const std::vector<int64_t> &shape);

/// `min -1.2 max 3.4 mean 0.01 nan 0 [0.1, 0.2, ...]`: the first
/// `maxElements` values, and "..." when there are more.
std::string summarizeTensor(const HostTensor &t, int64_t maxElements = 4);

} // namespace xs

#endif // XSTITCH_TOOLS_COMMON_TENSORCOMPARE_H
