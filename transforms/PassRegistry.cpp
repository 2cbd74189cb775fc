// The one table of passes. Adding a pass: write Name.h/Name.cpp with one
// entry point, add its row here, add tests/transforms/name/*.xs.

#include "transforms/AlgebraicSimplify.h"
#include "transforms/CSE.h"
#include "transforms/CollapseDims.h"
#include "transforms/ConstantFold.h"
#include "transforms/DCE.h"
#include "transforms/Decompose.h"
#include "transforms/KernelPlanPass.h"
#include "transforms/Pass.h"
#include "transforms/ShapeInference.h"
#include "transforms/SinkReshapes.h"
#include "transforms/SinkTransposes.h"
#include "transforms/StrengthReduce.h"
#include "transforms/VerifyPass.h"

namespace xs {

namespace {
constexpr PassInfo kPasses[] = {
    {"verify", "check structure and types; changes nothing", runVerifyPass, nullptr, false},
    {"shape-inference", "infer result types and collect dim constraints", runShapeInference,
     nullptr, false},
    {"decompose", "rewrite composites (layer_norm, softmax, gelu, ...) into primitives",
     runDecompose, nullptr, true},
    {"constant-fold", "evaluate ops whose operands are all constants", runConstantFold, nullptr,
     true},
    {"sink-transposes",
     "transposes move below element-wise ops and reductions toward their inverse",
     runSinkTransposes, nullptr, true},
    {"algebraic-simplify", "local identities: x+0, x*1, neg(neg(x)), no-op reshapes, ...",
     runAlgebraicSimplify, nullptr, true},
    {"strength-reduce",
     "cheaper float ops: pow by a constant exponent (x*x, sqrt, rsqrt, ...), a/sqrt(b) -> "
     "a*rsqrt(b)",
     runStrengthReduce, nullptr, true},
    {"sink-reshapes",
     "reshapes move below element-wise ops; reshapes adding dims of size 1 fold into broadcasts",
     runSinkReshapes, nullptr, true},
    {"collapse-dims",
     "the last two dims that every op of a region treats as one become their product",
     runCollapseDims, nullptr, true},
    {"cse", "merge identical ops on identical operands", runCSE, nullptr, true},
    {"dce", "remove ops whose results are unused", runDCE, nullptr, true},
    {"kernel-plan", "print the kernel plans and host plan, one op per kernel (analysis)", nullptr,
     runKernelPlanPass, true},
    {"stitch-plan", "print the stitched kernel plans and host plan (analysis)", nullptr,
     runStitchPlanPass, true},
};
} // namespace

std::span<const PassInfo> allPasses() { return kPasses; }

const PassInfo *lookupPass(std::string_view name) {
  for (const PassInfo &p : kPasses)
    if (p.name == name)
      return &p;
  return nullptr;
}

const std::vector<std::string> &defaultPipeline() {
  static const std::vector<std::string> kDefault = {"shape-inference",
                                                    "decompose",
                                                    "constant-fold",
                                                    "sink-transposes",
                                                    "algebraic-simplify",
                                                    "sink-reshapes",
                                                    "collapse-dims",
                                                    "strength-reduce",
                                                    "cse",
                                                    "dce"};
  return kDefault;
}

} // namespace xs
