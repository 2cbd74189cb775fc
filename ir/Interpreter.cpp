// The interpreter's driver: binding symbolic dims from the inputs, checking
// inputs and constraints, the op loop, and dispatch to the op families.

#include "ir/Interpreter.h"

#include <cassert>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "ir/HostSymbols.h"
#include "ir/InterpreterInternal.h"

namespace xs {
namespace interp {

std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

void unravelIndex(int64_t linear, const std::vector<int64_t> &shape, std::vector<int64_t> &index) {
  index.resize(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    int64_t d = shape[i];
    index[i] = d == 0 ? 0 : linear % d;
    linear = d == 0 ? 0 : linear / d;
  }
}

int64_t linearIndex(const std::vector<int64_t> &index, const std::vector<int64_t> &strides) {
  int64_t linear = 0;
  for (size_t i = 0; i < index.size(); ++i)
    linear += index[i] * strides[i];
  return linear;
}

std::vector<int64_t> intListAttrOr(const Operation &op, std::string_view name,
                                   std::vector<int64_t> dflt) {
  const Attribute *a = op.attr(name);
  return a ? a->getIntList() : dflt;
}

absl::StatusOr<std::vector<int64_t>> evaluateDimListAttr(const OpContext &ctx,
                                                         std::string_view name) {
  const Attribute *a = ctx.op.attr(name);
  if (!a)
    return ctx.error("missing attribute '", name, "'");
  std::vector<int64_t> values;
  for (const DimExpr &d : a->getDimList()) {
    absl::StatusOr<int64_t> v = d.evaluate(ctx.bindings);
    if (!v.ok())
      return ctx.error("cannot evaluate '", name, "' entry ", d.str(), ": ", v.status().message());
    values.push_back(*v);
  }
  return values;
}

absl::Status checkAxis(const OpContext &ctx, std::string_view name, int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= rank)
    return ctx.error("'", name, "' is ", axis, " but must be in [0, ", rank, ") for rank ", rank);
  return absl::OkStatus();
}

namespace {

/// Evaluates the dims of `type`; errors name `what` (e.g. "result").
absl::StatusOr<std::vector<int64_t>> evaluateShape(const TensorType &type,
                                                   const DimBindings &bindings) {
  std::vector<int64_t> shape;
  for (const DimExpr &d : type.shape()) {
    absl::StatusOr<int64_t> v = d.evaluate(bindings);
    if (!v.ok())
      return v.status();
    shape.push_back(*v);
  }
  return shape;
}

std::string shapeStr(const std::vector<int64_t> &shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ", "), "]");
}

/// Checks that a tensor's storage matches its shape and element type, so
/// later indexing cannot run past the end.
bool storageConsistent(const HostTensor &t) {
  size_t n = static_cast<size_t>(t.numElements());
  return t.isFloat() ? t.floats().size() == n : t.ints().size() == n;
}

absl::Status checkOperands(const interp::OpContext &ctx) {
  const Operation &op = ctx.op;
  const OpInfo &info = op.info();
  int64_t count = static_cast<int64_t>(ctx.operands.size());
  if (count != static_cast<int64_t>(op.numOperands()) || count < info.minOperands ||
      (info.maxOperands >= 0 && count > info.maxOperands))
    return ctx.error("got ", count, " operand values for ", op.numOperands(), " operands");
  for (size_t i = 0; i < ctx.operands.size(); ++i) {
    const HostTensor *t = ctx.operands[i];
    if (!t || !storageConsistent(*t))
      return ctx.error("operand ", i, " has no valid value");
    const TensorType &declared = op.operand(i)->type();
    if (!declared.known())
      continue;
    if (t->elementType() != declared.elementType() || t->rank() != declared.rank())
      return ctx.error("operand ", i, " is ", t->typeStr(), " but its type is ", declared.str());
    // Operand dims may mention symbols the caller did not bind (constant
    // folding binds only what the op needs); check those that evaluate.
    absl::StatusOr<std::vector<int64_t>> shape = evaluateShape(declared, ctx.bindings);
    if (shape.ok() && *shape != t->shape())
      return ctx.error("operand ", i, " is ", t->typeStr(), " but its type ", declared.str(),
                       " evaluates to ", shapeStr(*shape));
  }
  return absl::OkStatus();
}

absl::StatusOr<HostTensor> dispatch(const interp::OpContext &ctx) {
  switch (ctx.op.info().rule) {
  case TypeRule::UnaryNumeric:
  case TypeRule::UnaryFloat:
  case TypeRule::UnaryPredicate:
  case TypeRule::UnaryLogical:
  case TypeRule::BinaryNumeric:
  case TypeRule::BinaryLogical:
  case TypeRule::Compare:
  case TypeRule::Select:
  case TypeRule::Cast:
    return interp::evaluateElementwise(ctx);
  case TypeRule::Constant:
  case TypeRule::Iota:
  case TypeRule::DimValue:
    return interp::evaluateSource(ctx);
  case TypeRule::Broadcast:
  case TypeRule::Reshape:
  case TypeRule::Transpose:
  case TypeRule::Slice:
  case TypeRule::Concat:
  case TypeRule::Pad:
    return interp::evaluateMovement(ctx);
  case TypeRule::Gather:
  case TypeRule::TakeAlongAxis:
    return interp::evaluateGather(ctx);
  case TypeRule::Reduce:
  case TypeRule::ArgReduce:
    return interp::evaluateReduce(ctx);
  case TypeRule::Scan:
    return interp::evaluateScan(ctx);
  case TypeRule::TopK:
    return interp::evaluateTopK(ctx);
  case TypeRule::LayerNorm:
  case TypeRule::RmsNorm:
  case TypeRule::Softmax:
  case TypeRule::Gelu:
    return interp::evaluateComposite(ctx);
  case TypeRule::Dot:
    return interp::evaluateDot(ctx);
  }
  return ctx.error("the interpreter does not support this op");
}

} // namespace
} // namespace interp

absl::StatusOr<HostTensor> evaluateOp(const Operation &op,
                                      const std::vector<const HostTensor *> &operands,
                                      const DimBindings &bindings,
                                      const InterpreterOptions &options) {
  const TensorType &type = op.type();
  if (!type.known())
    return errorAtCat(op.loc(), op.mnemonic(),
                      ": result type is unknown; run shape inference before interpreting");
  absl::StatusOr<std::vector<int64_t>> shape = interp::evaluateShape(type, bindings);
  if (!shape.ok())
    return errorAtCat(op.loc(), op.mnemonic(), ": cannot evaluate result type ", type.str(), ": ",
                      shape.status().message());
  int64_t elements = 1;
  for (size_t i = 0; i < shape->size(); ++i) {
    int64_t d = (*shape)[i];
    if (d < 0)
      return errorAtCat(op.loc(), op.mnemonic(), ": dim ", i, " of result type ", type.str(),
                        " evaluates to ", d, ", which is negative");
    if (d != 0 && elements > options.maxElementsPerTensor / d)
      elements = options.maxElementsPerTensor + 1; // saturate instead of overflowing
    else
      elements *= d;
  }
  // A zero dim makes the product 0 even after saturating.
  for (int64_t d : *shape)
    if (d == 0)
      elements = 0;
  if (elements > options.maxElementsPerTensor)
    return errorAtCat(op.loc(), op.mnemonic(), ": result ", type.str(), " = ",
                      interp::shapeStr(*shape), " has more than the limit of ",
                      options.maxElementsPerTensor, " elements per tensor");
  interp::OpContext ctx{op, operands, bindings, type.elementType(), *shape};
  if (absl::Status s = interp::checkOperands(ctx); !s.ok())
    return s;
  absl::StatusOr<HostTensor> result = interp::dispatch(ctx);
  ElementType elementType = type.elementType();
  if (result.ok() && options.roundEachOp && isFloat(elementType) && elementType != ElementType::F64)
    for (double &v : result->floats())
      v = roundToFloatType(v, elementType);
  return result;
}

absl::StatusOr<DimBindings> bindDims(const Function &function,
                                     const std::vector<HostTensor> &inputs) {
  if (inputs.size() != function.params().size())
    return errorAtCat(function.loc(), "@", function.name(), " takes ", function.params().size(),
                      " inputs but got ", inputs.size());
  DimBindings bindings;
  // Which parameter dim first bound each symbol, for error messages.
  absl::flat_hash_map<std::string, std::string> boundBy;
  for (size_t p = 0; p < inputs.size(); ++p) {
    const Value &param = *function.param(p);
    const HostTensor &input = inputs[p];
    const TensorType &type = param.type();
    if (input.rank() != type.rank())
      return errorAtCat(param.loc(), "input %", param.name(), " has shape ",
                        interp::shapeStr(input.shape()), " of rank ", input.rank(),
                        " but the parameter type ", type.str(), " has rank ", type.rank());
    for (int64_t i = 0; i < type.rank(); ++i) {
      const DimExpr &d = type.dim(i);
      if (!d.isSymbol())
        continue;
      int64_t actual = input.shape()[static_cast<size_t>(i)];
      std::string where = absl::StrCat("dim ", i, " of %", param.name());
      auto [it, inserted] = bindings.try_emplace(d.symbolName(), actual);
      if (inserted) {
        boundBy[d.symbolName()] = where;
      } else if (it->second != actual) {
        return errorAtCat(param.loc(), "input %", param.name(), " has shape ",
                          interp::shapeStr(input.shape()), " but ", where, " is symbol ",
                          d.symbolName(), " = ", it->second, " (bound by ", boundBy[d.symbolName()],
                          ")");
      }
    }
  }
  function.constraints().deriveBindings(bindings);
  for (size_t p = 0; p < inputs.size(); ++p) {
    const Value &param = *function.param(p);
    const TensorType &type = param.type();
    for (int64_t i = 0; i < type.rank(); ++i) {
      const DimExpr &d = type.dim(i);
      absl::StatusOr<int64_t> expected = d.evaluate(bindings);
      if (!expected.ok())
        return errorAtCat(param.loc(), "dim ", i, " of %", param.name(), " (", d.str(),
                          ") cannot be evaluated: ", expected.status().message());
      int64_t actual = inputs[p].shape()[static_cast<size_t>(i)];
      if (*expected != actual)
        return errorAtCat(param.loc(), "input %", param.name(), " has shape ",
                          interp::shapeStr(inputs[p].shape()), " but dim ", i, " must be ", d.str(),
                          " = ", *expected, " (parameter type ", type.str(), ")");
    }
  }
  return bindings;
}

absl::StatusOr<std::vector<HostTensor>> interpret(const Function &function,
                                                  const std::vector<HostTensor> &inputs,
                                                  const InterpreterOptions &options) {
  if (inputs.size() != function.params().size())
    return errorAtCat(function.loc(), "@", function.name(), " takes ", function.params().size(),
                      " inputs but got ", inputs.size());
  for (size_t p = 0; p < inputs.size(); ++p) {
    const Value &param = *function.param(p);
    const HostTensor &input = inputs[p];
    if (input.elementType() != param.type().elementType())
      return errorAtCat(param.loc(), "input %", param.name(), " is ", input.typeStr(),
                        " but the parameter type is ", param.type().str());
    if (!interp::storageConsistent(input))
      return errorAtCat(param.loc(), "input %", param.name(), " (", input.typeStr(),
                        ") does not hold ", input.numElements(), " elements");
    if (input.numElements() > options.maxElementsPerTensor)
      return errorAtCat(param.loc(), "input %", param.name(), " has ", input.numElements(),
                        " elements, more than the limit of ", options.maxElementsPerTensor);
  }
  absl::StatusOr<DimBindings> bindings = bindDims(function, inputs);
  if (!bindings.ok())
    return bindings.status();
  if (const HostSymbols *hostSymbols = function.hostSymbols()) {
    ParamData paramData = [&](size_t p) -> absl::StatusOr<HostTensor> { return inputs[p]; };
    if (absl::Status s = bindHostSymbols(*hostSymbols, paramData, *bindings, options); !s.ok())
      return errorAtCat(function.loc(), s.message());
    function.constraints().deriveBindings(*bindings);
  }
  if (absl::Status s = function.constraints().check(*bindings); !s.ok()) {
    // The store's messages carry no location; give them the function's.
    if (absl::StrContains(s.message(), ": error: "))
      return s;
    return errorAtCat(function.loc(), "constraint of @", function.name(),
                      " violated by the inputs: ", s.message());
  }

  absl::flat_hash_map<const Value *, HostTensor> values;
  for (size_t p = 0; p < inputs.size(); ++p)
    values[function.param(p)] = inputs[p];
  // Frees each intermediate after its last use so long graphs stay small.
  absl::flat_hash_map<const Value *, int> remainingUses = function.useCounts();
  std::vector<const HostTensor *> operands;
  for (const std::unique_ptr<Operation> &op : function.ops()) {
    operands.clear();
    for (const Value *v : op->operands()) {
      auto it = values.find(v);
      assert(it != values.end() && "operand used before its definition");
      operands.push_back(&it->second);
    }
    absl::StatusOr<HostTensor> result = evaluateOp(*op, operands, *bindings, options);
    if (!result.ok())
      return result.status();
    for (const Value *v : op->operands())
      if (--remainingUses[v] == 0)
        values.erase(v);
    if (remainingUses[op->result()] > 0)
      values[op->result()] = *std::move(result);
  }

  std::vector<HostTensor> results;
  for (const FunctionResult &r : function.results()) {
    auto it = values.find(r.value);
    assert(it != values.end() && "returned value was never computed");
    results.push_back(it->second);
  }
  return results;
}

} // namespace xs
