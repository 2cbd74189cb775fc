#include "tools/RunInputs.h"
#include "tools/TensorFiles.h"

#include <random>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "frontend/onnx/OnnxImporter.h"
#include "ir/Diagnostics.h"
#include "ir/HostSymbols.h"
#include "tools/common/Npy.h"
#include "tools/common/RandomTensor.h"

namespace xs {

namespace {

bool isHostSymbol(const Function &function, const std::string &symbol) {
  const HostSymbols *hostSymbols = function.hostSymbols();
  return hostSymbols && absl::c_linear_search(hostSymbols->symbols, symbol);
}

absl::Status userError(std::string_view msg) {
  return absl::InvalidArgumentError(strCat("error: ", msg));
}

std::string paramNames(const Function &f) {
  std::vector<std::string> names;
  for (const auto &p : f.params())
    names.push_back("%" + p->name());
  return absl::StrJoin(names, ", ");
}

// Where a symbol got its value: the input and the dim, for error messages.
struct DimOrigin {
  std::string param;
  int64_t dim;
};

// Binds the symbols of `param`'s shape from a concrete tensor shape.
absl::Status bindFromShape(const Value &param, const HostTensor &t, DimBindings &dims,
                           absl::flat_hash_map<std::string, DimOrigin> &origins) {
  const TensorType &type = param.type();
  if (t.rank() != type.rank())
    return userError(strCat("input %", param.name(), " has rank ", t.rank(), " (", t.typeStr(),
                            ") but the function expects ", type.str()));
  for (int64_t i = 0; i < type.rank(); ++i) {
    const DimExpr &d = type.dim(i);
    if (!d.isSymbol())
      continue;
    auto [it, inserted] = dims.emplace(d.symbolName(), t.shape()[i]);
    if (inserted) {
      origins[d.symbolName()] = {param.name(), i};
    } else if (it->second != t.shape()[i]) {
      const DimOrigin &origin = origins[d.symbolName()];
      return userError(strCat("inputs %", origin.param, " and %", param.name(), " disagree on dim ",
                              d.symbolName(), ": %", origin.param, " has ", d.symbolName(), " = ",
                              it->second, " at dim ", origin.dim, ", %", param.name(), " has ",
                              d.symbolName(), " = ", t.shape()[i], " at dim ", i));
    }
  }
  return absl::OkStatus();
}

// Refuses random inputs so large that a typo in --dim would exhaust memory.
absl::Status checkElementCount(const Value &param, const std::vector<int64_t> &shape) {
  constexpr int64_t kMaxElements = int64_t(1) << 31;
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d != 0 && count > kMaxElements / d)
      return userError(strCat("random input %", param.name(), " would have more than ",
                              kMaxElements, " elements; check the --dim values"));
    count *= d;
  }
  return absl::OkStatus();
}

} // namespace

absl::StatusOr<std::pair<std::string, std::string>> splitAssignment(const std::string &text,
                                                                    std::string_view flag) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return userError(strCat("--", flag, " expects NAME=VALUE, got '", text, "'"));
  std::string name = text.substr(0, eq);
  if (absl::StartsWith(name, "%"))
    name = name.substr(1);
  return std::make_pair(name, text.substr(eq + 1));
}

/// An inline tensor as iree-run-module writes one: `2x3xf32=1,2,3,4,5,6`
/// (dims, then the element type, then the values row-major; a scalar is
/// `f32=2.5`). nullopt when `spec` is not written so (a file path).
std::optional<absl::StatusOr<HostTensor>> parseInlineTensor(const std::string &spec) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos)
    return std::nullopt;
  std::vector<std::string> parts = absl::StrSplit(spec.substr(0, eq), 'x');
  std::optional<ElementType> type = parseElementType(parts.back());
  if (!type)
    return std::nullopt;
  std::vector<int64_t> shape;
  int64_t count = 1;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    int64_t d = 0;
    if (!absl::SimpleAtoi(parts[i], &d) || d < 0)
      return userError(
          strCat("inline tensor '", spec, "': dim '", parts[i],
                 "' is not a size (write DIMSxTYPE=VALUES, e.g. 2x3xf32=1,2,3,4,5,6)"));
    shape.push_back(d);
    count *= d;
  }
  std::vector<std::string> values =
      eq + 1 == spec.size() ? std::vector<std::string>{}
                            : std::vector<std::string>(absl::StrSplit(spec.substr(eq + 1), ','));
  if (static_cast<int64_t>(values.size()) != count)
    return userError(strCat("inline tensor '", spec, "': ", elementTypeName(*type), "[",
                            absl::StrJoin(shape, ", "), "] takes ", count, " values, got ",
                            values.size()));
  HostTensor tensor(*type, shape);
  for (size_t i = 0; i < values.size(); ++i) {
    double v = 0;
    if (!absl::SimpleAtod(absl::StripAsciiWhitespace(values[i]), &v))
      return userError(strCat("inline tensor '", spec, "': '", values[i], "' is not a number"));
    if (isFloat(*type))
      tensor.setDouble(static_cast<int64_t>(i), v);
    else
      tensor.setInt(static_cast<int64_t>(i), static_cast<int64_t>(v));
  }
  return tensor;
}

/// The default range of random integer parameter `param`: what it feeds
/// decides (the values derived from it through casts to integers and
/// movement ops are followed): indices of gather and take_along_axis stay
/// within the smallest dim they index, values compared or cast to i1 are 0
/// or 1. nullopt: the type's default. `why` tells which.
std::optional<RandomRange> inferredRange(const Function &function, const Value &param,
                                         const DimBindings &dims, std::string &why) {
  if (!isInteger(param.type().elementType()))
    return std::nullopt;
  absl::flat_hash_set<const Value *> derived = {&param};
  std::optional<int64_t> indexBound;
  bool boolean = false;
  for (const auto &op : function.ops()) {
    for (size_t i = 0; i < op->numOperands(); ++i) {
      if (!derived.contains(op->operand(i)))
        continue;
      switch (op->kind()) {
      case OpKind::Gather:
      case OpKind::TakeAlongAxis:
        if (i == 1)
          if (absl::StatusOr<int64_t> d =
                  op->operand(0)->type().dim(op->intAttrOr("dim", 0)).evaluate(dims);
              d.ok() && *d > 0)
            indexBound = std::min(indexBound.value_or(*d), *d);
        break;
      case OpKind::Compare:
        boolean = true;
        break;
      case OpKind::Cast:
        if (op->type().elementType() == ElementType::I1)
          boolean = true;
        else if (isInteger(op->type().elementType()))
          derived.insert(op->result());
        break;
      case OpKind::Reshape:
      case OpKind::Broadcast:
      case OpKind::Transpose:
      case OpKind::Slice:
        derived.insert(op->result());
        break;
      default:
        break;
      }
    }
  }
  if (indexBound) {
    why = strCat(" (indices into a dim of ", *indexBound, ")");
    return RandomRange{0, static_cast<double>(*indexBound)};
  }
  if (boolean) {
    why = " (a mask: compared or cast to i1)";
    return RandomRange{0, 2};
  }
  return std::nullopt;
}

absl::StatusOr<BoundInputs> bindInputs(const Function &function, const InputRequest &request) {
  const size_t n = function.params().size();
  BoundInputs out;
  out.tensors.resize(n);
  out.sources.assign(n, "random");
  std::vector<bool> loaded(n, false), random(n, false);
  std::vector<std::optional<RandomRange>> ranges(n);
  absl::flat_hash_set<std::string> seen;
  absl::flat_hash_map<std::string, DimOrigin> origins;

  for (const std::string &spec : request.inputs) {
    auto assignment = splitAssignment(spec, "input");
    if (!assignment.ok())
      return assignment.status();
    auto [name, value] = *assignment;
    const Value *param = function.lookup(name);
    if (!param || !param->isParam())
      return userError(strCat("--input names '", name, "', which is not a parameter of @",
                              function.name(), " (parameters: ", paramNames(function), ")"));
    if (!seen.insert(name).second)
      return userError(strCat("--input for %", name, " is given more than once"));
    size_t index = static_cast<size_t>(param->paramIndex());
    if (absl::StartsWith(value, "random")) {
      auto range = parseRandomSpec(std::string_view(value).substr(6));
      if (!range.ok())
        return userError(std::string(range.status().message()));
      ranges[index] = *range;
      random[index] = true;
      continue;
    }
    std::optional<absl::StatusOr<HostTensor>> inlined = parseInlineTensor(std::string(value));
    absl::StatusOr<HostTensor> t = inlined ? std::move(*inlined) : readTensorFile(value);
    if (!t.ok())
      return t.status();
    ElementType want = param->type().elementType();
    if (want == ElementType::BF16 && t->elementType() == ElementType::F32) {
      HostTensor converted(ElementType::BF16, t->shape());
      for (int64_t i = 0; i < t->numElements(); ++i)
        converted.setDouble(i, t->getDouble(i));
      *t = std::move(converted);
    }
    if (t->elementType() != want)
      return userError(strCat(value, " holds ", elementTypeName(t->elementType()), " but %", name,
                              " is ", param->type().str()));
    if (absl::Status s = bindFromShape(*param, *t, out.dims, origins); !s.ok())
      return s;
    out.tensors[index] = std::move(*t);
    out.sources[index] = value;
    loaded[index] = true;
  }

  // A value left out is not made up unless asked for: every one is named.
  if (!request.randomUnspecified) {
    std::vector<std::string> missing;
    for (size_t i = 0; i < n; ++i)
      if (!loaded[i] && !random[i])
        missing.push_back(strCat("%", function.param(i)->name()));
    if (!missing.empty())
      return userError(strCat(
          "no --input for ", absl::StrJoin(missing, ", "),
          ": give each a .npy or .pb file or an inline value (--input NAME=PATH, --input "
          "NAME=2x3xf32=1,2,...), or random values (--input NAME=random, or --random-inputs for "
          "every input not given)"));
  }

  // --dim values, after the symbols bound by files so that conflicts show.
  absl::flat_hash_set<std::string> signatureSymbols;
  for (const auto &p : function.params())
    for (const DimExpr &d : p->type().shape())
      for (const std::string &s : d.symbols())
        signatureSymbols.insert(s);
  for (const std::string &spec : request.dims) {
    auto assignment = splitAssignment(spec, "dim");
    if (!assignment.ok())
      return assignment.status();
    auto [name, text] = *assignment;
    int64_t v;
    if (!absl::SimpleAtoi(text, &v) || v < 0)
      return userError(strCat("--dim ", name, " needs a non-negative integer, got '", text, "'"));
    // A symbol unified with another by shape inference is bound through its
    // representative.
    if (isHostSymbol(function, std::string(name)))
      return userError(strCat("--dim names '", name, "', which @", function.name(),
                              " computes from its inputs at each call (a host symbol); give "
                              "the inputs it reads with --input instead"));
    DimExpr canonical = function.constraints().canonicalize(DimExpr::symbol(name));
    // An ONNX dim_param as the model writes it ("batch size") names the
    // symbol the importer made of it (batch_size).
    if (!canonical.isSymbol() || !signatureSymbols.contains(canonical.symbolName()))
      canonical = function.constraints().canonicalize(DimExpr::symbol(onnxDimSymbol(name)));
    if (!canonical.isSymbol() || !signatureSymbols.contains(canonical.symbolName())) {
      std::vector<std::string> known(signatureSymbols.begin(), signatureSymbols.end());
      std::sort(known.begin(), known.end());
      return userError(
          strCat("--dim names '", name, "', which is not a dimension symbol of @", function.name(),
                 " (symbols: ", known.empty() ? "none" : absl::StrJoin(known, ", "), ")"));
    }
    auto [it, inserted] = out.dims.emplace(canonical.symbolName(), v);
    if (!inserted && it->second != v)
      return userError(strCat("--dim ", name, "=", v, " disagrees with ", canonical.symbolName(),
                              " = ", it->second, " from the input files"));
  }
  function.constraints().deriveBindings(out.dims);
  // Dims that cannot broadcast are refused before anything is compiled.
  for (const ConstraintStore::Broadcast &fact : function.constraints().broadcasts()) {
    absl::StatusOr<int64_t> a = fact.a.evaluate(out.dims), b = fact.b.evaluate(out.dims);
    if (a.ok() && b.ok() && *a != *b && *a != 1 && *b != 1)
      return userError(strCat(fact.a.str(), " = ", *a, " and ", fact.b.str(), " = ", *b,
                              " meet in a broadcast in @", function.name(),
                              ", so they must be equal or one of them 1"));
  }
  // Facts may derive a host symbol (E == 8), but its value is computed at
  // each call, not given.
  absl::erase_if(out.dims,
                 [&](const auto &binding) { return isHostSymbol(function, binding.first); });

  // Every symbol random inputs need and no --dim gives, named at once.
  std::vector<std::string> missing, needing;
  for (size_t i = 0; i < n; ++i) {
    const Value &param = *function.param(i);
    if (loaded[i])
      continue;
    bool needs = false;
    for (const DimExpr &d : param.type().shape()) {
      if (d.evaluate(out.dims).ok())
        continue;
      needs = true;
      for (const std::string &symbol : d.symbols()) {
        auto spelled = request.dimSpellings.find(symbol);
        std::string name = spelled != request.dimSpellings.end() ? spelled->second : symbol;
        // A dim_param with spaces is one shell word only quoted.
        std::string flag = name.find(' ') != std::string::npos ? strCat("--dim \"", name, "=N\"")
                                                               : strCat("--dim ", name, "=N");
        if (!out.dims.contains(symbol) &&
            std::find(missing.begin(), missing.end(), flag) == missing.end())
          missing.push_back(flag);
      }
    }
    if (needs)
      needing.push_back(strCat("%", param.name(), ": ", param.type().str()));
  }
  if (!missing.empty())
    return userError(strCat(needing.size() == 1 ? "random input " : "random inputs ",
                            absl::StrJoin(needing, ", "), needing.size() == 1 ? " needs" : " need",
                            " a value for every symbol: pass ", absl::StrJoin(missing, " ")));

  std::mt19937_64 rng(request.seed);
  for (size_t i = 0; i < n; ++i) {
    const Value &param = *function.param(i);
    if (loaded[i])
      continue;
    std::vector<int64_t> shape;
    for (const DimExpr &d : param.type().shape()) {
      absl::StatusOr<int64_t> v = d.evaluate(out.dims);
      if (!v.ok()) {
        std::vector<std::string> missing;
        for (const std::string &s : d.symbols())
          if (!out.dims.contains(s))
            missing.push_back(strCat("--dim ", s, "=N"));
        return userError(strCat("random input %", param.name(), " of type ", param.type().str(),
                                " needs a value for every symbol: pass ",
                                absl::StrJoin(missing, " ")));
      }
      if (*v < 0)
        return userError(
            strCat("dim ", d.str(), " of %", param.name(), " is ", *v, ", which is negative"));
      shape.push_back(*v);
    }
    if (absl::Status s = checkElementCount(param, shape); !s.ok())
      return s;
    ElementType t = param.type().elementType();
    std::string why;
    std::optional<RandomRange> inferred =
        ranges[i] ? std::nullopt : inferredRange(function, param, out.dims, why);
    RandomRange range = ranges[i].value_or(inferred.value_or(defaultRandomRange(t)));
    out.tensors[i] = randomTensor(t, shape, range, rng);
    out.randomDescriptions.push_back(strCat("%", param.name(), ": ", out.tensors[i].typeStr(),
                                            " in [", range.lo, ", ", range.hi, ")", why));
  }
  return out;
}

} // namespace xs
