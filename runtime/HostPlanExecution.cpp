#include "runtime/HostPlanExecution.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "backends/common/KernelABI.h"
#include "ir/Diagnostics.h"
#include "ir/HostSymbols.h"

namespace xs {

namespace {

bool validIndex(int index, size_t size) { return index >= 0 && static_cast<size_t>(index) < size; }

} // namespace

absl::Status checkHostPlan(const HostPlan &plan) {
  auto bad = [&](auto &&...pieces) {
    return absl::InternalError(strCat("host plan of @", plan.function, ": ", pieces...));
  };
  size_t numBuffers = plan.buffers.size();
  for (size_t b = 0; b < numBuffers; ++b) {
    const HostBuffer &buffer = plan.buffers[b];
    switch (buffer.kind) {
    case HostBuffer::Kind::Input:
      if (!validIndex(buffer.paramIndex, plan.paramTypes.size()))
        return bad("input %", buffer.name, " has parameter index ", buffer.paramIndex);
      break;
    case HostBuffer::Kind::Temporary:
      if (!validIndex(buffer.slot, static_cast<size_t>(plan.numSlots)))
        return bad("temporary %", buffer.name, " has slot ", buffer.slot);
      break;
    case HostBuffer::Kind::Alias: {
      // Chains of aliases must end at a real buffer.
      size_t hops = 0;
      int target = static_cast<int>(b);
      while (validIndex(target, numBuffers) &&
             plan.buffers[static_cast<size_t>(target)].kind == HostBuffer::Kind::Alias &&
             hops++ <= numBuffers)
        target = plan.buffers[static_cast<size_t>(target)].aliasOf;
      if (!validIndex(target, numBuffers))
        return bad("alias %", buffer.name, " does not resolve to a buffer");
      break;
    }
    case HostBuffer::Kind::Constant:
    case HostBuffer::Kind::Output:
      break;
    }
  }
  for (int output : plan.outputs)
    if (!validIndex(output, numBuffers))
      return bad("output buffer ", output, " out of range");
  for (const HostStep &step : plan.steps) {
    for (int b : step.buffers)
      if (!validIndex(b, numBuffers))
        return bad("step ", step.kernel, " uses buffer ", b, " out of range");
    if (step.kind == HostStep::Kind::Launch && step.variants.empty())
      return bad("kernel ", step.kernel, " has no launch variant");
    for (const HostLaunchVariant &variant : step.variants)
      if (variant.phases < 1)
        return bad("kernel ", step.kernel, " variant ", variant.symbol, " has ", variant.phases,
                   " phases");
    if (step.kind == HostStep::Kind::Alias && step.buffers.size() != 2)
      return bad("alias step with ", step.buffers.size(), " buffers");
    if (step.kind == HostStep::Kind::Library && step.buffers.empty())
      return bad("library step ", mnemonic(step.libraryOp), " without a result");
  }
  return absl::OkStatus();
}

namespace {

constexpr int64_t kSlotAlignment = 64;

std::string shapeStr(const TensorView &t) {
  return strCat(elementTypeName(t.type), "[", absl::StrJoin(t.shape, ", "), "]");
}

/// Where a symbol got its value, for messages about conflicts.
struct BindingSite {
  size_t input = 0;
  int64_t dim = 0;
  std::string symbol; // as written in the parameter type
  int64_t value = 0;
};

absl::Status conflictError(const HostPlan &plan, const BindingSite &first,
                           const BindingSite &second) {
  std::string symbols = first.symbol == second.symbol
                            ? first.symbol
                            : strCat(first.symbol, " (", first.symbol, " == ", second.symbol, ")");
  std::string a = inputName(plan, first.input), b = inputName(plan, second.input);
  if (first.input == second.input)
    return absl::InvalidArgumentError(strCat(
        "input ", a, " must have equal dims ", first.dim, " and ", second.dim, " (", symbols,
        "): dim ", first.dim, " is ", first.value, " but dim ", second.dim, " is ", second.value));
  std::string secondValue = first.symbol == second.symbol
                                ? strCat(second.value)
                                : strCat(second.symbol, " = ", second.value);
  return absl::InvalidArgumentError(strCat("inputs ", a, " and ", b, " must share ", symbols, ": ",
                                           a, " has ", first.symbol, " = ", first.value, " (dim ",
                                           first.dim, ") but ", b, " has ", secondValue, " (dim ",
                                           second.dim, ")"));
}

/// A dim of the form `a*S + c` (a != 0): the symbol, a and c.
struct LinearDim {
  std::string symbol;
  int64_t coefficient = 0;
  int64_t offset = 0;
};

std::optional<LinearDim> asLinear(const DimExpr &d) {
  LinearDim linear;
  for (const DimTerm &term : d.terms()) {
    if (term.factors.empty()) {
      linear.offset = term.coefficient;
    } else if (term.factors.size() == 1 && term.factors[0].isSymbol() && linear.symbol.empty()) {
      linear.symbol = term.factors[0].symbol;
      linear.coefficient = term.coefficient;
    } else {
      return std::nullopt;
    }
  }
  if (linear.symbol.empty() || linear.coefficient == 0)
    return std::nullopt;
  return linear;
}

absl::Status checkInputs(const HostPlan &plan, const std::vector<TensorView> &inputs) {
  if (inputs.size() != plan.paramTypes.size())
    return absl::InvalidArgumentError(strCat("@", plan.function, " takes ", plan.paramTypes.size(),
                                             " inputs but got ", inputs.size()));
  for (size_t p = 0; p < inputs.size(); ++p) {
    const TensorView &input = inputs[p];
    const TensorType &type = plan.paramTypes[p];
    if (input.type != type.elementType())
      return absl::InvalidArgumentError(strCat("input ", inputName(plan, p), " is ",
                                               shapeStr(input), " but the parameter type is ",
                                               type.str()));
    if (static_cast<int64_t>(input.shape.size()) != type.rank())
      return absl::InvalidArgumentError(strCat(
          "input ", inputName(plan, p), " has shape ", shapeStr(input), " of rank ",
          input.shape.size(), " but the parameter type ", type.str(), " has rank ", type.rank()));
    for (size_t i = 0; i < input.shape.size(); ++i)
      if (input.shape[i] < 0)
        return absl::InvalidArgumentError(strCat("input ", inputName(plan, p), " has shape ",
                                                 shapeStr(input), " with a negative dim ", i));
    if (input.data == nullptr && input.numElements() > 0)
      return absl::InvalidArgumentError(
          strCat("input ", inputName(plan, p), " (", shapeStr(input), ") has no data"));
  }
  return absl::OkStatus();
}

} // namespace

std::string inputName(const HostPlan &plan, size_t index) {
  for (const HostBuffer &buffer : plan.buffers)
    if (buffer.kind == HostBuffer::Kind::Input && buffer.paramIndex == static_cast<int>(index))
      return strCat("%", buffer.name);
  return strCat("#", index);
}

absl::StatusOr<DimBindings> bindInputDims(const HostPlan &plan,
                                          const std::vector<TensorView> &inputs) {
  if (absl::Status s = checkInputs(plan, inputs); !s.ok())
    return s;
  DimBindings bindings;
  // Keyed by the symbol's equality-class representative, so that inputs
  // typed with two symbols known to be equal are compared too.
  absl::flat_hash_map<std::string, BindingSite> sites;
  auto bind = [&](const std::string &symbol, BindingSite site) -> absl::Status {
    DimExpr representative = plan.constraints.canonicalize(DimExpr::symbol(symbol));
    std::string key = representative.isSymbol() ? representative.symbolName() : symbol;
    auto [it, inserted] = sites.try_emplace(key, site);
    if (!inserted && it->second.value != site.value)
      return conflictError(plan, it->second, site);
    bindings[symbol] = site.value;
    if (representative.isSymbol())
      bindings[key] = site.value;
    return absl::OkStatus();
  };

  for (size_t p = 0; p < inputs.size(); ++p) {
    const TensorType &type = plan.paramTypes[p];
    for (int64_t i = 0; i < type.rank(); ++i) {
      const DimExpr &d = type.dim(i);
      if (!d.isSymbol())
        continue;
      BindingSite site{p, i, d.symbolName(), inputs[p].shape[static_cast<size_t>(i)]};
      if (absl::Status s = bind(d.symbolName(), site); !s.ok())
        return s;
    }
  }
  // Dims like `S + 1` or `2*S` bind S when nothing else does.
  for (size_t p = 0; p < inputs.size(); ++p) {
    const TensorType &type = plan.paramTypes[p];
    for (int64_t i = 0; i < type.rank(); ++i) {
      std::optional<LinearDim> linear = asLinear(type.dim(i));
      if (!linear || type.dim(i).isSymbol() || bindings.contains(linear->symbol))
        continue;
      int64_t actual = inputs[p].shape[static_cast<size_t>(i)];
      int64_t numerator = actual - linear->offset;
      if (numerator % linear->coefficient != 0 || numerator / linear->coefficient < 0)
        return absl::InvalidArgumentError(
            strCat("input ", inputName(plan, p), " has shape ", shapeStr(inputs[p]), " but dim ", i,
                   " must be ", type.dim(i).str(), " for some ", linear->symbol, " >= 0"));
      BindingSite site{p, i, linear->symbol, numerator / linear->coefficient};
      if (absl::Status s = bind(linear->symbol, site); !s.ok())
        return s;
    }
  }
  plan.constraints.deriveBindings(bindings);

  for (size_t p = 0; p < inputs.size(); ++p) {
    const TensorType &type = plan.paramTypes[p];
    for (int64_t i = 0; i < type.rank(); ++i) {
      const DimExpr &d = type.dim(i);
      int64_t actual = inputs[p].shape[static_cast<size_t>(i)];
      absl::StatusOr<int64_t> expected = d.evaluate(bindings);
      if (!expected.ok())
        return absl::InvalidArgumentError(strCat("dim ", i, " of input ", inputName(plan, p), " (",
                                                 d.str(),
                                                 ") cannot be determined from the input "
                                                 "shapes: ",
                                                 expected.status().message()));
      if (*expected == actual)
        continue;
      std::string must = d.isConstant() ? strCat(*expected) : strCat(d.str(), " = ", *expected);
      return absl::InvalidArgumentError(strCat("input ", inputName(plan, p), " has shape ",
                                               shapeStr(inputs[p]), " but dim ", i, " must be ",
                                               must, " (parameter type ", type.str(), ")"));
    }
  }
  if (plan.hostSymbols) {
    ParamData paramData = [&](size_t p) -> absl::StatusOr<HostTensor> {
      return toHostTensor(inputs[p]);
    };
    if (absl::Status s = bindHostSymbols(*plan.hostSymbols, paramData, bindings); !s.ok())
      return s;
    plan.constraints.deriveBindings(bindings);
  }
  if (absl::Status s = plan.constraints.check(bindings); !s.ok()) {
    std::vector<std::string> shapes;
    for (size_t p = 0; p < inputs.size(); ++p)
      shapes.push_back(strCat(inputName(plan, p), ": ", shapeStr(inputs[p])));
    return absl::InvalidArgumentError(strCat("the inputs of @", plan.function,
                                             " violate a shape constraint: ", s.message(),
                                             " (inputs ", absl::StrJoin(shapes, ", "), ")"));
  }
  // Symbols of the plan that no parameter mentions are defined by others.
  for (const std::string &symbol : plan.symbols) {
    if (bindings.contains(symbol))
      continue;
    absl::StatusOr<int64_t> value =
        plan.constraints.canonicalize(DimExpr::symbol(symbol)).evaluate(bindings);
    if (!value.ok())
      return absl::InvalidArgumentError(strCat("symbol ", symbol, " of @", plan.function,
                                               " cannot be determined from the input shapes"));
    bindings[symbol] = *value;
  }
  // Pads, top_k and gathers whose dims the interpreter refuses
  // (HostCheck::onHost).
  for (const HostCheck &check : plan.checks) {
    if (!check.onHost())
      continue;
    absl::StatusOr<int64_t> size = check.bound.evaluate(bindings);
    if (!size.ok())
      return absl::InternalError(strCat("@", plan.function, ": the size of dim ", check.axis,
                                        " of ", check.op,
                                        " cannot be evaluated: ", size.status().message()));
    std::string why;
    switch (check.kind) {
    case HostCheck::Kind::ReflectPadTooWide:
      if (check.amount >= *size)
        why = strCat("reflect padding of dim ", check.axis, " by ", check.amount,
                     " needs the dim's size above it, but it is ", *size);
      break;
    case HostCheck::Kind::EdgePadOfEmpty:
      if (*size == 0)
        why = strCat("edge padding of dim ", check.axis, " needs a non-empty dim, but it is 0");
      break;
    case HostCheck::Kind::TopKBeyondDim:
      if (check.amount > *size)
        why = strCat("k = ", check.amount, " needs at least ", check.amount, " elements along dim ",
                     check.axis, ", but it has ", *size);
      break;
    case HostCheck::Kind::ClampedIndexOfEmpty: {
      absl::StatusOr<int64_t> indices = check.elements.evaluate(bindings);
      if (!indices.ok())
        return absl::InternalError(strCat("@", plan.function, ": the indices of ", check.op,
                                          " cannot be counted: ", indices.status().message()));
      if (*size == 0 && *indices > 0)
        why = strCat("its ", *indices, " indices are clamped into dim ", check.axis,
                     ", which is empty: every index is out of range");
      break;
    }
    default:
      break;
    }
    if (!why.empty())
      return absl::InvalidArgumentError(
          strCat("@", plan.function, ": ", check.op, " in kernel ", check.kernel, ": ", why,
                 " at these inputs' shapes; the reference interpreter refuses them too"));
  }
  return bindings;
}

absl::StatusOr<BufferLayout> layoutBuffers(const HostPlan &plan, const DimBindings &dims) {
  BufferLayout layout;
  layout.shapes.resize(plan.buffers.size());
  layout.bytes.resize(plan.buffers.size());
  std::vector<int64_t> slotBytes(static_cast<size_t>(plan.numSlots), 0);
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    const HostBuffer &buffer = plan.buffers[b];
    int64_t bytes = elementByteSize(buffer.type.elementType());
    for (int64_t i = 0; i < buffer.type.rank(); ++i) {
      absl::StatusOr<int64_t> d = buffer.type.dim(i).evaluate(dims);
      if (!d.ok())
        return absl::InternalError(strCat("buffer %", buffer.name, " of @", plan.function, ": dim ",
                                          i, " (", buffer.type.dim(i).str(),
                                          ") cannot be evaluated: ", d.status().message()));
      if (*d < 0)
        return absl::InvalidArgumentError(
            strCat("buffer %", buffer.name, " of @", plan.function, " would have dim ", i, " (",
                   buffer.type.dim(i).str(), ") = ", *d, " at these input shapes"));
      if (*d > 0 && bytes > std::numeric_limits<int64_t>::max() / *d)
        return absl::InvalidArgumentError(strCat("buffer %", buffer.name, " of @", plan.function,
                                                 " would be too large at these input shapes"));
      bytes *= *d;
      layout.shapes[b].push_back(*d);
    }
    layout.bytes[b] = bytes;
    if (buffer.kind == HostBuffer::Kind::Temporary) {
      if (buffer.slot < 0 || buffer.slot >= plan.numSlots)
        return absl::InternalError(strCat("temporary %", buffer.name, " of @", plan.function,
                                          " has slot ", buffer.slot, " of ", plan.numSlots));
      int64_t &slot = slotBytes[static_cast<size_t>(buffer.slot)];
      slot = std::max(slot, bytes);
    }
  }
  for (int64_t bytes : slotBytes) {
    layout.slotOffsets.push_back(layout.arenaBytes);
    layout.arenaBytes += (bytes + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment;
  }
  return layout;
}

absl::StatusOr<size_t> chooseVariant(const HostStep &step, const DimBindings &dims) {
  for (size_t v = 0; v < step.variants.size(); ++v) {
    absl::StatusOr<bool> holds = evaluateAll(step.variants[v].predicates, dims);
    if (!holds.ok())
      return absl::InternalError(strCat("kernel ", step.kernel, ": variant ", v,
                                        " predicates: ", holds.status().message()));
    if (*holds)
      return v;
  }
  return absl::InternalError(strCat("kernel ", step.kernel, ": no launch variant matches"));
}

absl::StatusOr<std::vector<int64_t>> symbolValues(const HostPlan &plan, const DimBindings &dims) {
  std::vector<int64_t> values;
  values.reserve(plan.symbols.size());
  for (const std::string &symbol : plan.symbols) {
    auto it = dims.find(symbol);
    if (it == dims.end())
      return absl::InternalError(
          strCat("symbol ", symbol, " of @", plan.function, " is not bound"));
    values.push_back(it->second);
  }
  values.push_back(0); // the status word
  return values;
}

absl::Status checkStatusWord(const HostPlan &plan, uint64_t word, const DimBindings &dims) {
  if (word == 0)
    return absl::OkStatus();
  StatusWord status = decodeStatusWord(word);
  if (status.code < 0 || static_cast<size_t>(status.code) >= plan.checks.size())
    return absl::InternalError(strCat("@", plan.function, ": a kernel raised status word ", word,
                                      ", which names no check of the plan"));
  const HostCheck &check = plan.checks[static_cast<size_t>(status.code)];
  if (check.onHost())
    return absl::InternalError(
        strCat("@", plan.function, ": a kernel raised host check ", status.code));
  std::string where = strCat(check.op, " in kernel ", check.kernel);
  if (!check.sharedBy.empty())
    where += strCat(" (or ", absl::StrJoin(check.sharedBy, ", "), ", which run its code)");
  std::string what;
  switch (check.kind) {
  case HostCheck::Kind::DivisionByZero:
    what = "integer division by zero";
    break;
  case HostCheck::Kind::ZeroToNegativePower:
    what = "integer 0 to a negative power (a division by zero)";
    break;
  case HostCheck::Kind::ReflectPadTooWide:
  case HostCheck::Kind::EdgePadOfEmpty:
  case HostCheck::Kind::TopKBeyondDim:
  case HostCheck::Kind::ClampedIndexOfEmpty:
    break;
  case HostCheck::Kind::IndexOutOfRange: {
    std::string index = status.saturated
                            ? strCat(status.value < 0 ? "below " : "above ", status.value)
                            : strCat(status.value);
    absl::StatusOr<int64_t> bound = check.bound.evaluate(dims);
    what = strCat("index ", index, " is out of range");
    if (bound.ok())
      what += strCat(" for a dim of size ", *bound, " (valid: ", -*bound, " to ", *bound - 1, ")");
    break;
  }
  }
  return absl::InvalidArgumentError(strCat("@", plan.function, ": ", where, ": ", what,
                                           "; the reference interpreter refuses these inputs too"));
}

size_t aliasTarget(const HostPlan &plan, size_t index) {
  while (plan.buffers[index].kind == HostBuffer::Kind::Alias)
    index = static_cast<size_t>(plan.buffers[index].aliasOf);
  return index;
}

absl::StatusOr<Tensor> constantTensor(const HostBuffer &buffer) {
  std::optional<std::vector<int64_t>> shape = buffer.type.staticShape();
  if (!buffer.constant || !shape || buffer.constant->elementType() != buffer.type.elementType() ||
      buffer.constant->size() !=
          TensorView{buffer.type.elementType(), *shape, nullptr}.numElements())
    return absl::InternalError(strCat("constant %", buffer.name, " does not hold the ",
                                      buffer.type.str(), " its type says"));
  // Kernels only read constants: the tensor aliases the plan's elements.
  std::shared_ptr<const void> data = sharedData(buffer.constant);
  return Tensor(buffer.type.elementType(), *shape, std::const_pointer_cast<void>(std::move(data)));
}

absl::StatusOr<int64_t> launchQuantity(const HostStep &step, std::string_view what,
                                       const DimExpr &expr, const DimBindings &dims) {
  absl::StatusOr<int64_t> value = expr.evaluate(dims);
  if (!value.ok())
    return absl::InternalError(strCat("kernel ", step.kernel, ": ", what, " ", expr.str(), ": ",
                                      value.status().message()));
  if (*value < 0)
    return absl::InternalError(
        strCat("kernel ", step.kernel, ": ", what, " ", expr.str(), " = ", *value));
  return *value;
}

std::string hostStepName(const HostStep &step) {
  if (!step.kernel.empty())
    return step.kernel;
  return std::string(mnemonic(step.libraryOp));
}

absl::Status runHostSteps(const HostPlan &plan, RunStats *stats,
                          const std::function<absl::Status(const HostStep &, size_t)> &runStep,
                          const std::function<absl::Status()> &waitForStep) {
  using Clock = std::chrono::steady_clock;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const HostStep &step = plan.steps[i];
    if (step.kind == HostStep::Kind::Alias)
      continue;
    Clock::time_point start = Clock::now();
    XS_RETURN_IF_ERROR(runStep(step, i));
    if (stats == nullptr)
      continue;
    if (waitForStep)
      XS_RETURN_IF_ERROR(waitForStep());
    stats->steps.push_back(
        {hostStepName(step), std::chrono::duration<double>(Clock::now() - start).count()});
  }
  return absl::OkStatus();
}

} // namespace xs
