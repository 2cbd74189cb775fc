#include "tools/common/TensorCompare.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace xs {

Tolerance defaultTolerance(ElementType t) {
  switch (t) {
  case ElementType::F64:
    return {1e-12, 1e-12};
  case ElementType::F32:
    return {1e-5, 1e-4};
  case ElementType::F16:
    return {1e-3, 1e-2};
  case ElementType::BF16:
    return {1e-2, 5e-2};
  default:
    return {0, 0};
  }
}

CompareResult compareTensors(const HostTensor &actual, const HostTensor &expected, Tolerance tol,
                             int keepWorst) {
  CompareResult r;
  if (actual.shape() != expected.shape()) {
    r.shapeMatches = false;
    return r;
  }
  r.total = actual.numElements();
  std::vector<ElementDiff> bad;
  for (int64_t i = 0; i < r.total; ++i) {
    double a = actual.getDouble(i), e = expected.getDouble(i);
    double err;
    if (std::isnan(a) || std::isnan(e)) {
      err = (std::isnan(a) && std::isnan(e)) ? 0 : INFINITY;
    } else if (std::isinf(a) || std::isinf(e)) {
      err = a == e ? 0 : INFINITY;
    } else {
      double diff = std::fabs(a - e);
      r.maxAbsError = std::max(r.maxAbsError, diff);
      double allowed = tol.atol + tol.rtol * std::fabs(e);
      err = allowed > 0 ? diff / allowed : (diff == 0 ? 0 : INFINITY);
    }
    if (err > 1) {
      ++r.mismatches;
      bad.push_back({i, a, e, err});
    }
  }
  std::sort(bad.begin(), bad.end(), [](const ElementDiff &x, const ElementDiff &y) {
    return x.error != y.error ? x.error > y.error : x.index < y.index;
  });
  if (bad.size() > static_cast<size_t>(keepWorst))
    bad.resize(keepWorst);
  r.worst = std::move(bad);
  return r;
}

std::string formatIndex(int64_t flat, const std::vector<int64_t> &shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t n = shape[d] == 0 ? 1 : shape[d];
    idx[d] = flat % n;
    flat /= n;
  }
  return absl::StrCat("[", absl::StrJoin(idx, ", "), "]");
}

std::string summarizeTensor(const HostTensor &t, int64_t maxElements) {
  int64_t n = t.numElements();
  if (n == 0)
    return "(empty)";
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  int64_t nans = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = t.getDouble(i);
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  std::vector<std::string> head;
  for (int64_t i = 0; i < std::min<int64_t>(n, maxElements); ++i)
    head.push_back(absl::StrFormat("%.6g", t.getDouble(i)));
  std::string out = absl::StrFormat("min %.6g max %.6g mean %.6g", lo, hi,
                                    n > nans ? sum / double(n - nans) : NAN);
  if (nans)
    absl::StrAppend(&out, " nan ", nans);
  absl::StrAppend(&out, " [", absl::StrJoin(head, ", "), n > maxElements ? ", ...]" : "]");
  return out;
}

} // namespace xs
