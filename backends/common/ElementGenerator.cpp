#include "backends/common/ElementGenerator.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "backends/common/GroupEmitter.h"
#include "backends/common/KernelABI.h"
#include "backends/common/LoopBuilder.h"
#include "backends/common/MathFunctions.h"
#include "backends/common/ScalarOps.h"
#include "backends/common/TypeLowering.h"
#include "ir/Diagnostics.h"
#include "ir/ScalarConversions.h"
#include "ir/ValueFacts.h"
#include "transforms/BlockBuffers.h"
#include "llvm/ADT/bit.h"

namespace xs {

void KernelContext::fail(const std::string &message) {
  if (status.ok())
    status = absl::InternalError(strCat("kernel ", kernelName, ": ", message));
}

llvm::Value *KernelContext::allocateBlockBuffer(llvm::Type *type, const DimExpr &elements,
                                                llvm::Value *count) {
  const llvm::DataLayout &layout = b.GetInsertBlock()->getModule()->getDataLayout();
  blockBufferBytes =
      blockBufferBytes +
      alignedBlockBufferBytes(elements * static_cast<int64_t>(layout.getTypeAllocSize(type)));
  return target.allocateBlockBuffer(b, type, count);
}

llvm::Value *ElementGenerator::placeholder(const Value *value) {
  return llvm::PoisonValue::get(computeType(ctx_.b.getContext(), value->type().elementType()));
}

std::optional<ElementGenerator::Storage> ElementGenerator::storageOf(const Value *value) const {
  auto materialized = materialized_.find(value);
  if (materialized != materialized_.end())
    return materialized->second;
  if (value->isParam())
    return Storage{ctx_.buffers[static_cast<size_t>(value->paramIndex())], nullptr};
  return std::nullopt;
}

void ElementGenerator::walkSameIndex(
    const Value *value,
    const std::function<void(const Value *, std::optional<Storage>)> &visit) const {
  absl::flat_hash_set<const Value *> seen;
  std::vector<const Value *> pending{value};
  while (!pending.empty()) {
    const Value *v = pending.back();
    pending.pop_back();
    if (!seen.insert(v).second)
      continue;
    std::optional<Storage> storage = storageOf(v);
    visit(v, storage);
    if (storage)
      continue;
    const Operation &op = *v->definingOp();
    if (!op.info().isElementwise())
      continue;
    for (const Value *operand : op.operands())
      if (operand->type().shape() == v->type().shape())
        pending.push_back(operand);
  }
}

std::vector<const Value *> ElementGenerator::sameIndexReads(const Value *value) const {
  std::vector<const Value *> reads;
  walkSameIndex(value, [&](const Value *v, std::optional<Storage> storage) {
    if (storage && storage->origin == nullptr)
      reads.push_back(v);
  });
  return reads;
}

std::vector<const Operation *> ElementGenerator::sameIndexPieceOps(const Value *value,
                                                                   size_t axis) const {
  std::vector<const Operation *> ops;
  walkSameIndex(value, [&](const Value *v, std::optional<Storage> storage) {
    const Operation *op = v->definingOp();
    if (!storage && op && pieceExtents(*op, axis).size() > 1)
      ops.push_back(op);
  });
  return ops;
}

std::vector<DimExpr> ElementGenerator::pieceExtents(const Operation &op, size_t axis) {
  std::vector<DimExpr> extents;
  if (op.kind() == OpKind::Concat && static_cast<size_t>(op.intAttrOr("dim", 0)) == axis) {
    for (const Value *operand : op.operands())
      extents.push_back(operand->type().dim(static_cast<int64_t>(axis)));
  } else if (op.kind() == OpKind::Pad) {
    int64_t low = op.attr("low")->getIntList()[axis];
    int64_t high = op.attr("high")->getIntList()[axis];
    if (low >= 0 && high >= 0 && low + high > 0)
      extents = {DimExpr(low), op.operand(0)->type().dim(static_cast<int64_t>(axis)),
                 DimExpr(high)};
  }
  return extents;
}

llvm::Value *ElementGenerator::load(const Value *value, const Storage &storage,
                                    llvm::Value *linear) {
  if (storage.origin)
    linear = ctx_.b.CreateSub(linear, storage.origin, "", /*HasNUW=*/true, /*HasNSW=*/true);
  return loadElement(ctx_.b, value->type().elementType(), storage.base, linear);
}

llvm::Value *ElementGenerator::dim(const DimExpr &e) {
  llvm::IRBuilder<> &b = ctx_.b;
  if (std::optional<int64_t> constant = e.constantValue())
    return b.getInt64(*constant);
  llvm::Value *sum = nullptr;
  for (const DimTerm &term : e.terms()) {
    llvm::Value *product = term.coefficient == 1 ? nullptr : b.getInt64(term.coefficient);
    for (const DimAtom &atom : term.factors) {
      llvm::Value *factor;
      if (atom.isSymbol()) {
        auto it = ctx_.symbols.find(atom.symbol);
        if (it == ctx_.symbols.end()) {
          ctx_.fail(strCat("symbol ", atom.symbol, " is not among the host plan's symbols"));
          factor = b.getInt64(0);
        } else {
          factor = it->second;
        }
      } else {
        // Floor division by a positive constant (the numerator may be negative).
        llvm::Value *numerator = dim(*atom.numerator);
        llvm::Value *divisor = b.getInt64(atom.divisor);
        llvm::Value *quotient = b.CreateSDiv(numerator, divisor);
        llvm::Value *remainder = b.CreateSRem(numerator, divisor);
        factor = b.CreateSub(
            quotient, b.CreateZExt(b.CreateICmpSLT(remainder, b.getInt64(0)), b.getInt64Ty()));
      }
      product = product ? b.CreateMul(product, factor) : factor;
    }
    if (!product)
      product = b.getInt64(1);
    sum = sum ? b.CreateAdd(sum, product) : product;
  }
  if (!sum)
    sum = b.getInt64(0);
  return sum;
}

std::vector<llvm::Value *> ElementGenerator::dims(const std::vector<DimExpr> &shape) {
  std::vector<llvm::Value *> values;
  for (const DimExpr &d : shape)
    values.push_back(dim(d));
  return values;
}

llvm::Value *ElementGenerator::linearize(const std::vector<llvm::Value *> &index,
                                         const std::vector<DimExpr> &shape) {
  llvm::IRBuilder<> &b = ctx_.b;
  if (index.empty())
    return b.getInt64(0);
  llvm::Value *linear = index[0];
  for (size_t d = 1; d < index.size(); ++d)
    linear = b.CreateAdd(b.CreateMul(linear, dim(shape[d]), "", /*HasNUW=*/true, /*HasNSW=*/true),
                         index[d], "", /*HasNUW=*/true, /*HasNSW=*/true);
  return linear;
}

std::vector<llvm::Value *> ElementGenerator::unravel(llvm::Value *linear,
                                                     const std::vector<DimExpr> &shape) {
  return unravelDividing(linear, shape, /*clampDivisors=*/false);
}

std::vector<llvm::Value *> ElementGenerator::unravelDividing(llvm::Value *linear,
                                                             const std::vector<DimExpr> &shape,
                                                             bool clampDivisors) {
  llvm::IRBuilder<> &b = ctx_.b;
  std::vector<llvm::Value *> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    if (d == 0) {
      index[d] = linear;
    } else if (shape[d] == DimExpr(1)) {
      index[d] = b.getInt64(0);
    } else {
      llvm::Value *size = dim(shape[d]);
      if (clampDivisors && !provablyPositive(shape[d]))
        size = emitMax(b, size, b.getInt64(1));
      index[d] = b.CreateURem(linear, size);
      linear = b.CreateUDiv(linear, size);
    }
  }
  return index;
}

std::vector<llvm::Value *> ElementGenerator::unravelStart(llvm::Value *linear,
                                                          const std::vector<DimExpr> &shape) {
  return unravelDividing(linear, shape, /*clampDivisors=*/true);
}

std::vector<llvm::Value *> ElementGenerator::advance(const std::vector<llvm::Value *> &index,
                                                     const std::vector<DimExpr> &shape) {
  llvm::IRBuilder<> &b = ctx_.b;
  std::vector<llvm::Value *> next(index);
  llvm::Value *carry = b.getTrue();
  for (size_t d = shape.size(); d-- > 0;) {
    llvm::Value *bumped = b.CreateAdd(index[d], b.getInt64(1));
    if (d == 0) {
      next[d] = b.CreateSelect(carry, bumped, index[d]);
      break;
    }
    llvm::Value *wraps = b.CreateICmpEQ(bumped, dim(shape[d]));
    next[d] = b.CreateSelect(carry, b.CreateSelect(wraps, b.getInt64(0), bumped), index[d]);
    carry = b.CreateAnd(carry, wraps);
  }
  return next;
}

bool ElementGenerator::provablyPositive(const DimExpr &e) const {
  if (std::optional<int64_t> constant = e.constantValue())
    return *constant >= 1;
  std::optional<DimRange> range = ctx_.body.constraints().boundsOf(e);
  return range && range->lo >= 1;
}

llvm::Value *ElementGenerator::emit(const Value *value, const std::vector<llvm::Value *> &index) {
  if (!ctx_.status.ok())
    return placeholder(value);
  if (std::optional<Storage> storage = storageOf(value))
    return load(value, *storage, positionOf(index, value->type().shape()));
  return emitOp(*value->definingOp(), index);
}

llvm::Value *ElementGenerator::positionOf(const std::vector<llvm::Value *> &index,
                                          const std::vector<DimExpr> &shape) {
  if (position_ && position_->index == index && position_->shape == shape)
    return position_->linear;
  return linearize(index, shape);
}

llvm::Value *ElementGenerator::emitOp(const Operation &op,
                                      const std::vector<llvm::Value *> &index) {
  llvm::IRBuilder<> &b = ctx_.b;
  auto operand = [&](size_t i) { return emit(op.operand(i), index); };
  auto operandType = [&](size_t i) { return op.operand(i)->type().elementType(); };
  llvm::Value *result = nullptr;
  switch (op.info().rule) {
  case TypeRule::UnaryNumeric:
  case TypeRule::UnaryFloat:
  case TypeRule::UnaryPredicate:
  case TypeRule::UnaryLogical:
    if (op.kind() == OpKind::Exp && ctx_.target.description().flushesSubnormals &&
        (operandType(0) == ElementType::F32 || operandType(0) == ElementType::F64) &&
        isAtMostItsMaximum(*op.operand(0))) {
      // Under mixed precision the result is rounded to 16 bits: a shorter
      // polynomial is exact enough (docs/math.md).
      std::optional<ElementType> rounded = roundedOnlyTo16Bits(ctx_.body, *op.result());
      math::ExpUse use = !rounded                        ? math::ExpUse::Full
                         : *rounded == ElementType::BF16 ? math::ExpUse::ToBF16
                                                         : math::ExpUse::ToF16;
      result = math::emitExpNonPositiveFlushed(b, operand(0), use);
    } else {
      result = emitUnaryOp(b, op.kind(), operandType(0), operand(0));
    }
    break;
  case TypeRule::BinaryNumeric:
  case TypeRule::BinaryLogical: {
    llvm::Value *x = operand(0), *y = operand(1);
    if (ctx_.checkCodes.contains(&op)) {
      llvm::Value *zero = llvm::ConstantInt::get(y->getType(), 0);
      llvm::Value *bad = op.kind() == OpKind::Pow
                             ? b.CreateAnd(b.CreateICmpEQ(x, zero), b.CreateICmpSLT(y, zero))
                             : b.CreateICmpEQ(y, zero);
      raise(op, bad, b.getInt64(0));
    }
    result = emitBinaryOp(b, op.kind(), operandType(0), x, y);
    break;
  }
  case TypeRule::Compare:
    result = emitCompareOp(b, op.enumAttrOr("dir", ""), operandType(0), operand(0), operand(1));
    break;
  case TypeRule::Select: {
    llvm::Value *cond = operand(0);
    llvm::Value *onTrue = operand(1);
    llvm::Value *onFalse = operand(2);
    result = b.CreateSelect(cond, onTrue, onFalse);
    break;
  }
  case TypeRule::Cast:
    result = emitCastOp(b, operandType(0), op.type().elementType(), operand(0),
                        ctx_.target.bfloatRounding());
    break;
  case TypeRule::Constant:
    result = emitConstant(op, index);
    break;
  case TypeRule::Iota:
    result = emitCastOp(b, ElementType::I64, op.type().elementType(),
                        index[static_cast<size_t>(op.intAttrOr("dim", 0))],
                        ctx_.target.bfloatRounding());
    break;
  case TypeRule::DimValue: {
    // One dim, or a vector of dims indexed by the element's position.
    const std::vector<DimExpr> &dims = op.attr("dims")->getDimList();
    llvm::Value *value = dim(dims[0]);
    for (size_t k = 1; k < dims.size(); ++k)
      value = b.CreateSelect(b.CreateICmpEQ(index[0], b.getInt64(static_cast<int64_t>(k))),
                             dim(dims[k]), value);
    result = emitCastOp(b, ElementType::I64, op.type().elementType(), value,
                        ctx_.target.bfloatRounding());
    break;
  }
  case TypeRule::Broadcast:
    result = emitBroadcast(op, index);
    break;
  case TypeRule::Reshape:
    result = emitReshape(op, index);
    break;
  case TypeRule::Transpose:
    result = emitTranspose(op, index);
    break;
  case TypeRule::Slice:
    result = emitSlice(op, index);
    break;
  case TypeRule::Concat:
    result = emitConcat(op, index);
    break;
  case TypeRule::Pad:
    result = emitPad(op, index);
    break;
  case TypeRule::Gather:
    result = emitGather(op, index);
    break;
  case TypeRule::TakeAlongAxis:
    result = emitTakeAlongAxis(op, index);
    break;
  case TypeRule::Reduce:
  case TypeRule::ArgReduce:
    result = emitReduceAt(*this, op, index);
    break;
  default:
    break;
  }
  if (!result) {
    ctx_.fail(
        strCat("cannot generate '", op.mnemonic(), "' (", op.result()->name(), ") element-wise"));
    return placeholder(op.result());
  }
  return result;
}

llvm::Value *ElementGenerator::emitConstant(const Operation &op,
                                            const std::vector<llvm::Value *> &index) {
  llvm::LLVMContext &context = ctx_.b.getContext();
  ElementType type = op.type().elementType();
  const Attribute *attr = op.attr("value");
  if (!attr || attr->kind() != AttrKind::Literal)
    return nullptr;
  const LiteralValue &literal = attr->getLiteral();
  if (literal.shape.empty())
    return literal.isInteger ? integerConstant(context, type, literal.asInt(0))
                             : floatConstant(context, type, literal.asDouble(0));
  // A dense constant inside a kernel: a private global array, read by index.
  std::vector<llvm::Constant *> elements;
  for (int64_t i = 0; i < literal.size(); ++i) {
    llvm::Constant *c = literal.isInteger ? integerConstant(context, type, literal.asInt(i))
                                          : floatConstant(context, type, literal.asDouble(i));
    if (type == ElementType::I1)
      c = llvm::ConstantInt::get(llvm::Type::getInt8Ty(context), c->isOneValue() ? 1 : 0);
    else if (type == ElementType::F16)
      c = llvm::ConstantFP::get(storageType(context, type),
                                roundToFloatType(literal.asDouble(i), type));
    else if (type == ElementType::BF16)
      // Rounded to bf16 first, so the f32's upper half is the bf16 exactly.
      c = llvm::ConstantInt::get(storageType(context, type),
                                 llvm::bit_cast<uint32_t>(static_cast<float>(
                                     roundToFloatType(literal.asDouble(i), type))) >>
                                     16);
    elements.push_back(c);
  }
  llvm::Module &module = *ctx_.b.GetInsertBlock()->getModule();
  auto *arrayType = llvm::ArrayType::get(storageType(context, type), elements.size());
  auto *global = new llvm::GlobalVariable(
      module, arrayType, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(arrayType, elements), ctx_.kernelName + "." + op.result()->name());
  return loadElement(ctx_.b, type, global, linearize(index, op.type().shape()));
}

llvm::Value *ElementGenerator::emitBroadcast(const Operation &op,
                                             const std::vector<llvm::Value *> &index) {
  llvm::IRBuilder<> &b = ctx_.b;
  const Value *x = op.operand(0);
  const std::vector<int64_t> &mapping = op.attr("dims")->getIntList();
  std::vector<llvm::Value *> source;
  for (size_t d = 0; d < mapping.size(); ++d) {
    const DimExpr &from = x->type().dim(static_cast<int64_t>(d));
    const DimExpr &to = op.type().dim(mapping[d]);
    llvm::Value *i = index[static_cast<size_t>(mapping[d])];
    if (from == to) {
      source.push_back(i);
    } else if (from == DimExpr(1)) {
      source.push_back(b.getInt64(0));
    } else {
      // A symbolic operand dim that is 1 at run time repeats. Multiplying by
      // (dim != 1) keeps the index affine, so vectorized loops can still
      // compute their runtime alias checks.
      llvm::Value *repeats = b.CreateZExt(b.CreateICmpNE(dim(from), b.getInt64(1)), b.getInt64Ty());
      source.push_back(b.CreateMul(i, repeats));
    }
  }
  return emit(x, source);
}

llvm::Value *ElementGenerator::emitReshape(const Operation &op,
                                           const std::vector<llvm::Value *> &index) {
  const Value *x = op.operand(0);
  if (x->type().shape() == op.type().shape())
    return emit(x, index);
  // Row-major data in memory keeps its position: load it there directly
  // (no division, and the loop stays vectorizable).
  if (std::optional<Storage> storage = storageOf(x))
    return load(x, *storage, linearize(index, op.type().shape()));
  // Dims are matched from the innermost in groups of equal products: a dim
  // split in several ([.., 768] -> [.., 12, 64]) takes the ravel of their
  // indices (no division), dims merged into one are unravelled from it, and
  // shared dims keep their index, so the innermost loop vectorizes
  // ([B*S, 768] -> [B, S, 768]: 768 keeps its index, B and S are unravelled
  // from B*S). Dims that do not group (symbolic products that match only in
  // part) are linearized and unravelled as a whole.
  const std::vector<DimExpr> &to = op.type().shape();
  const std::vector<DimExpr> &from = x->type().shape();
  std::vector<llvm::Value *> source(from.size());
  auto mapGroup = [&](size_t toBegin, size_t toEnd, size_t fromBegin, size_t fromEnd) {
    std::vector<DimExpr> toDims(to.begin() + static_cast<std::ptrdiff_t>(toBegin),
                                to.begin() + static_cast<std::ptrdiff_t>(toEnd));
    std::vector<DimExpr> fromDims(from.begin() + static_cast<std::ptrdiff_t>(fromBegin),
                                  from.begin() + static_cast<std::ptrdiff_t>(fromEnd));
    std::vector<llvm::Value *> toIndex(index.begin() + static_cast<std::ptrdiff_t>(toBegin),
                                       index.begin() + static_cast<std::ptrdiff_t>(toEnd));
    std::vector<llvm::Value *> fromIndex = reindex(toIndex, toDims, fromDims);
    std::copy(fromIndex.begin(), fromIndex.end(),
              source.begin() + static_cast<std::ptrdiff_t>(fromBegin));
  };
  size_t i = to.size(), j = from.size();
  while (i > 0 && j > 0) {
    size_t ti = i - 1, fj = j - 1;
    DimExpr toProduct = to[ti], fromProduct = from[fj];
    bool grouped = true;
    while (toProduct != fromProduct) {
      std::optional<int64_t> t = toProduct.constantValue(), f = fromProduct.constantValue();
      if (ti > 0 && (to[ti - 1] * toProduct == fromProduct || (t && f && *t < *f))) {
        toProduct = to[--ti] * toProduct;
      } else if (fj > 0 && (from[fj - 1] * fromProduct == toProduct || (t && f && *f < *t))) {
        fromProduct = from[--fj] * fromProduct;
      } else {
        grouped = false;
        break;
      }
    }
    if (!grouped)
      break;
    mapGroup(ti, i, fj, j);
    i = ti;
    j = fj;
  }
  if (i > 0 || j > 0)
    mapGroup(0, i, 0, j);
  return emit(x, source);
}

std::vector<llvm::Value *> ElementGenerator::reindex(std::vector<llvm::Value *> index,
                                                     std::vector<DimExpr> shape,
                                                     const std::vector<DimExpr> &target) {
  llvm::IRBuilder<> &b = ctx_.b;
  std::vector<llvm::Value *> result(target.size());
  // `index` in `shape` is a mixed-radix number whose innermost digits are
  // taken off as each target dim, from the innermost, is indexed.
  size_t f = target.size();
  for (; f > 1; --f) {
    const DimExpr &size = target[f - 1];
    // The innermost q dims of what is left, whose product divides the
    // target dim: their ravel is its index's low part, without a division.
    DimExpr low(1);
    size_t q = 0;
    while (q < shape.size() && DimExpr::exactDiv(size, low * shape[shape.size() - 1 - q]))
      low = low * shape[shape.size() - 1 - q++];
    std::vector<llvm::Value *> lowIndex(index.end() - static_cast<std::ptrdiff_t>(q), index.end());
    std::vector<DimExpr> lowDims(shape.end() - static_cast<std::ptrdiff_t>(q), shape.end());
    if (low == size) {
      result[f - 1] = linearize(lowIndex, lowDims);
    } else {
      // Else the next dim out must be a whole multiple m of what the
      // target dim still needs: its index modulo m is the high part.
      std::optional<DimExpr> m = DimExpr::exactDiv(size, low);
      if (!m || q == shape.size())
        break;
      std::optional<DimExpr> rest = DimExpr::exactDiv(shape[shape.size() - 1 - q], *m);
      if (!rest)
        break;
      llvm::Value *&next = index[index.size() - 1 - q];
      llvm::Value *high = b.CreateURem(next, dim(*m));
      result[f - 1] =
          q == 0 ? high : b.CreateAdd(b.CreateMul(high, dim(low)), linearize(lowIndex, lowDims));
      next = b.CreateUDiv(next, dim(*m));
      shape[shape.size() - 1 - q] = *rest;
    }
    index.resize(index.size() - q);
    shape.resize(shape.size() - q);
  }
  // What is left: the outermost target dim takes the rest whole; target
  // dims that did not divide are unravelled from it.
  std::vector<DimExpr> outer(target.begin(), target.begin() + static_cast<std::ptrdiff_t>(f));
  std::vector<llvm::Value *> outerIndex = unravel(linearize(index, shape), outer);
  std::copy(outerIndex.begin(), outerIndex.end(), result.begin());
  return result;
}

llvm::Value *ElementGenerator::emitTranspose(const Operation &op,
                                             const std::vector<llvm::Value *> &index) {
  const std::vector<int64_t> &perm = op.attr("perm")->getIntList();
  std::vector<llvm::Value *> source(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    source[static_cast<size_t>(perm[i])] = index[i];
  return emit(op.operand(0), source);
}

llvm::Value *ElementGenerator::emitSlice(const Operation &op,
                                         const std::vector<llvm::Value *> &index) {
  llvm::IRBuilder<> &b = ctx_.b;
  const std::vector<DimExpr> &start = op.attr("start")->getDimList();
  const Attribute *stepAttr = op.attr("step");
  std::vector<llvm::Value *> source;
  for (size_t d = 0; d < index.size(); ++d) {
    int64_t step = stepAttr ? stepAttr->getIntList()[d] : 1;
    llvm::Value *i = step == 1 ? index[d] : b.CreateMul(index[d], b.getInt64(step));
    source.push_back(start[d] == DimExpr(0) ? i : b.CreateAdd(dim(start[d]), i));
  }
  return emit(op.operand(0), source);
}

llvm::Value *ElementGenerator::emitConcat(const Operation &op,
                                          const std::vector<llvm::Value *> &index) {
  llvm::IRBuilder<> &b = ctx_.b;
  size_t axis = static_cast<size_t>(op.intAttrOr("dim", 0));
  size_t count = op.numOperands();
  if (auto piece = columnPieces_.find(&op);
      piece != columnPieces_.end() && piece->second.column == index[axis]) {
    DimExpr offset(0);
    for (size_t j = 0; j < piece->second.piece; ++j)
      offset = offset + op.operand(j)->type().dim(static_cast<int64_t>(axis));
    std::vector<llvm::Value *> source = index;
    source[axis] = b.CreateSub(index[axis], dim(offset));
    return emit(op.operand(piece->second.piece), source);
  }
  std::vector<llvm::Value *> offsets; // start of each operand along the axis
  std::vector<llvm::Value *> ends;
  bool allNonEmpty = true;
  llvm::Value *offset = b.getInt64(0);
  for (size_t j = 0; j < count; ++j) {
    const DimExpr &size = op.operand(j)->type().dim(static_cast<int64_t>(axis));
    allNonEmpty = allNonEmpty && provablyPositive(size);
    offsets.push_back(offset);
    offset = b.CreateAdd(offset, dim(size));
    ends.push_back(offset);
  }
  auto readOperand = [&](size_t j, llvm::Value *local) {
    std::vector<llvm::Value *> source = index;
    source[axis] = local;
    return emit(op.operand(j), source);
  };
  // Every operand is read at an index clamped into it and the right one is
  // selected: straight-line code, vectorizable. An operand that may be empty
  // at run time is read only when it is not (its reads are guarded by a
  // condition that holds for the whole loop, which the vectorizer hoists);
  // selecting among per-element branches instead let the loop vectorizer
  // turn them into masked loads whose lanes read the wrong operand's rows.
  llvm::Value *zero =
      llvm::Constant::getNullValue(computeType(b.getContext(), op.type().elementType()));
  llvm::Value *result = nullptr;
  for (size_t j = count; j-- > 0;) {
    llvm::Value *size = b.CreateSub(ends[j], offsets[j]);
    llvm::Value *local =
        emitMax(b, b.getInt64(0),
                emitMin(b, b.CreateSub(index[axis], offsets[j]), b.CreateSub(size, b.getInt64(1))));
    const DimExpr &extent = op.operand(j)->type().dim(static_cast<int64_t>(axis));
    llvm::Value *value = allNonEmpty ? readOperand(j, local)
                                     : guardNonEmpty(
                                           {extent}, [&] { return readOperand(j, local); }, zero);
    result = result ? b.CreateSelect(b.CreateICmpSLT(index[axis], ends[j]), value, result) : value;
  }
  return result;
}

llvm::Value *ElementGenerator::guardNonEmpty(const std::vector<DimExpr> &sizes,
                                             const std::function<llvm::Value *()> &read,
                                             llvm::Value *fallback) {
  llvm::IRBuilder<> &b = ctx_.b;
  llvm::Value *nonEmpty = nullptr;
  for (const DimExpr &size : sizes) {
    if (provablyPositive(size))
      continue;
    llvm::Value *positive = b.CreateICmpSGT(dim(size), b.getInt64(0));
    nonEmpty = nonEmpty ? b.CreateAnd(nonEmpty, positive) : positive;
  }
  if (!nonEmpty)
    return read();
  return emitIfElse(b, nonEmpty, read, [&] { return fallback; });
}

llvm::Value *ElementGenerator::emitPad(const Operation &op,
                                       const std::vector<llvm::Value *> &index) {
  llvm::IRBuilder<> &b = ctx_.b;
  const Value *x = op.operand(0);
  const std::vector<int64_t> &low = op.attr("low")->getIntList();
  std::string mode = op.enumAttrOr("mode", "constant");
  ElementType type = op.type().elementType();
  llvm::Value *fill = floatConstant(b.getContext(), type, op.floatAttrOr("value", 0.0));
  llvm::Value *inside = b.getTrue();
  std::vector<llvm::Value *> source;
  // The loop walks one piece of the last dim (pieceExtents): the operand's
  // own columns read it at consecutive addresses; a constant pad's columns
  // beside them are the fill, an edge pad's the first or last column.
  std::optional<size_t> piece;
  if (auto found = columnPieces_.find(&op);
      found != columnPieces_.end() && found->second.column == index.back())
    piece = found->second.piece;
  if (piece && *piece != 1 && mode == "constant")
    return fill;
  size_t lastDim = index.size() - 1;
  for (size_t d = 0; d < index.size(); ++d) {
    llvm::Value *size = dim(x->type().dim(static_cast<int64_t>(d)));
    llvm::Value *last = b.CreateSub(size, b.getInt64(1));
    llvm::Value *j = low[d] == 0 ? index[d] : b.CreateSub(index[d], b.getInt64(low[d]));
    if (piece && d == lastDim && (*piece == 1 || mode == "edge")) {
      source.push_back(*piece == 1 ? j : *piece == 0 ? b.getInt64(0) : last);
      continue;
    }
    if (mode == "constant") {
      inside = b.CreateAnd(inside, b.CreateICmpULT(j, size));
    } else if (mode == "reflect") {
      llvm::Value *mirroredLow = b.CreateSub(b.getInt64(0), j);
      llvm::Value *mirroredHigh = b.CreateSub(b.CreateMul(last, b.getInt64(2)), j);
      j = b.CreateSelect(b.CreateICmpSLT(j, b.getInt64(0)), mirroredLow,
                         b.CreateSelect(b.CreateICmpSGT(j, last), mirroredHigh, j));
    }
    // Edge mode is the clamp itself; for the others it keeps reads inside.
    source.push_back(emitMax(b, b.getInt64(0), emitMin(b, j, last)));
  }
  llvm::Value *value = guardNonEmpty(
      x->type().shape(), [&] { return emit(x, source); }, fill);
  return mode == "constant" ? b.CreateSelect(inside, value, fill) : value;
}

llvm::Value *ElementGenerator::resolveIndex(const Operation &op, llvm::Value *raw,
                                            const DimExpr &sizeExpr) {
  llvm::IRBuilder<> &b = ctx_.b;
  // In [0, size) wherever the dim is not empty, and an empty dim is read
  // by no element (guardNonEmpty).
  if (isClampedIndex(*op.operand(1), sizeExpr))
    return raw;
  llvm::Value *size = dim(sizeExpr);
  llvm::Value *resolved =
      b.CreateSelect(b.CreateICmpSLT(raw, b.getInt64(0)), b.CreateAdd(raw, size), raw);
  if (ctx_.checkCodes.contains(&op))
    raise(op, b.CreateICmpUGE(resolved, size), raw);
  return emitMax(b, b.getInt64(0), emitMin(b, resolved, b.CreateSub(size, b.getInt64(1))));
}

void ElementGenerator::raise(const Operation &op, llvm::Value *bad, llvm::Value *value) {
  llvm::IRBuilder<> &b = ctx_.b;
  if (ctx_.raised == nullptr)
    return;
  // The value, saturated to 48 bits, below the code + 1 (KernelABI.h).
  llvm::Value *limit = b.getInt64(kStatusValueLimit);
  llvm::Value *saturated = emitMax(b, b.CreateNeg(limit), emitMin(b, value, limit));
  llvm::Value *word =
      b.CreateOr(b.getInt64(static_cast<int64_t>(encodeStatusWord(ctx_.checkCodes.at(&op), 0))),
                 b.CreateAnd(saturated, b.getInt64(kStatusValueMask)));
  llvm::Value *raised = b.CreateLoad(b.getInt64Ty(), ctx_.raised);
  llvm::Value *candidate = b.CreateSelect(bad, word, b.getInt64(0));
  b.CreateStore(b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, raised, candidate), ctx_.raised);
}

llvm::Value *ElementGenerator::emitGather(const Operation &op,
                                          const std::vector<llvm::Value *> &index) {
  const Value *x = op.operand(0);
  const Value *indices = op.operand(1);
  size_t axis = static_cast<size_t>(op.intAttrOr("dim", 0));
  size_t indexRank = static_cast<size_t>(indices->type().rank());
  std::vector<llvm::Value *> position(index.begin() + static_cast<std::ptrdiff_t>(axis),
                                      index.begin() +
                                          static_cast<std::ptrdiff_t>(axis + indexRank));
  llvm::Value *raw =
      indexFromInteger(ctx_.b, indices->type().elementType(), emit(indices, position));
  const DimExpr &size = x->type().dim(static_cast<int64_t>(axis));
  std::vector<llvm::Value *> source(index.begin(),
                                    index.begin() + static_cast<std::ptrdiff_t>(axis));
  source.push_back(resolveIndex(op, raw, size));
  source.insert(source.end(), index.begin() + static_cast<std::ptrdiff_t>(axis + indexRank),
                index.end());
  return guardNonEmpty(
      {size}, [&] { return emit(x, source); },
      llvm::Constant::getNullValue(computeType(ctx_.b.getContext(), x->type().elementType())));
}

llvm::Value *ElementGenerator::emitTakeAlongAxis(const Operation &op,
                                                 const std::vector<llvm::Value *> &index) {
  const Value *x = op.operand(0);
  const Value *indices = op.operand(1);
  size_t axis = static_cast<size_t>(op.intAttrOr("dim", 0));
  llvm::Value *raw = indexFromInteger(ctx_.b, indices->type().elementType(), emit(indices, index));
  const DimExpr &size = x->type().dim(static_cast<int64_t>(axis));
  std::vector<llvm::Value *> source = index;
  source[axis] = resolveIndex(op, raw, size);
  return guardNonEmpty(
      {size}, [&] { return emit(x, source); },
      llvm::Constant::getNullValue(computeType(ctx_.b.getContext(), x->type().elementType())));
}

} // namespace xs
