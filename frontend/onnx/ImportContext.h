#ifndef XSTITCH_FRONTEND_ONNX_IMPORTCONTEXT_H
#define XSTITCH_FRONTEND_ONNX_IMPORTCONTEXT_H

// What an operator importer sees of the graph being imported: the node, its
// inputs as IR values (or, for shape computations, as dims known at import
// time), its attributes, and helpers that build xstitch ops with ONNX's
// conventions (numpy broadcasting, negative axes). Values computed from
// constants only are evaluated as they are built (the reference
// interpreter's evaluateOp), so that shape operands computed in the graph
// (Reshape's shape, Slice's bounds) are known to the importers that need
// them.

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "ir/Builder.h"
#include "ir/HostTensor.h"
#include "ir/IR.h"
#include "onnx/onnx_pb.h"

namespace xs {

/// An ONNX value during import: an IR value, or a 1-D (or scalar) i64
/// tensor of dims known at import time, some of them symbolic (what Shape
/// gives for a tensor with dynamic axes). Dims that are all constant are kept
/// as an IR constant instead.
struct OnnxValue {
  Value *value = nullptr;
  std::optional<std::vector<DimExpr>> dims;
  bool scalarDims = false; // `dims` has rank 0 (one element)
};

/// The graph-wide state of an import.
struct GraphState {
  Function *function = nullptr;
  Location loc;
  absl::flat_hash_map<std::string, OnnxValue> values;
  /// Values known at import time, with their elements.
  absl::flat_hash_map<const Value *, HostTensor> known;
};

class ImportContext {
public:
  ImportContext(GraphState &graph, const onnx::NodeProto &node, int nodeIndex, int opset);
  /// The origin the ops built from now on carry (Location::origin), for
  /// what is no node: "initializer 'ln.weight'".
  void setOrigin(std::string origin);

  const onnx::NodeProto &node() const { return node_; }
  int opset() const { return opset_; }
  Function &function() { return *graph_.function; }

  // --- Errors: `file: error: node 3 'name' (Type): msg`.
  absl::Status error(std::string_view msg) const;
  /// An operator, attribute value or type xstitch does not import (exit 2).
  absl::Status unsupported(std::string_view msg) const;

  // --- Inputs. An input is present when the node names it (ONNX leaves out
  // optional inputs with an empty name).
  int numInputs() const { return node_.input_size(); }
  bool hasInput(int i) const;
  /// The input as an IR value (dims known at import become a constant).
  absl::StatusOr<Value *> input(int i);
  /// An optional input: nullptr when the node leaves it out.
  absl::StatusOr<Value *> optionalInput(int i);
  /// Every input as an IR value (variadic operators); an error when the node
  /// has none.
  absl::StatusOr<std::vector<Value *>> inputs();
  /// The input's type (dims known at import: i64 of their count).
  absl::StatusOr<TensorType> inputType(int i);
  /// The input's elements when they are known at import; `what` says what
  /// they are for in the error ("the shape of Reshape").
  absl::StatusOr<HostTensor> constantInput(int i, std::string_view what);
  absl::StatusOr<std::vector<int64_t>> constantInts(int i, std::string_view what);
  /// The input as dims known at import (symbolic dims allowed), for shape
  /// operands; `what` as above.
  absl::StatusOr<std::vector<DimExpr>> dimsInput(int i, std::string_view what);
  /// The input as sizes: dims known at import (dimsInput) or, when it is
  /// known only at run time, one host symbol per entry (runtimeEntries,
  /// hostDims); `what` as above.
  absl::StatusOr<std::vector<DimExpr>> sizesInput(int i, std::string_view what);
  /// Whether input i is known at import as dims (constant or symbolic).
  bool inputIsDims(int i) const;
  /// Whether input i is present but known only at run time (it depends on
  /// a graph input's values, or on dims through arithmetic dims cannot
  /// hold): a shape operand like that becomes host symbols (hostDims).
  bool inputIsRuntime(int i) const;
  /// The elements of `v`, an integer scalar or vector of a fixed length the
  /// graph computes at run time, as host symbols (ir/HostSymbols.h) named
  /// after this node; `what` names them in errors ("the shape of Reshape").
  absl::StatusOr<std::vector<DimExpr>> hostDims(Value *v, std::string_view what);
  /// Host symbols holding the values of i64 scalars `entries`.
  absl::StatusOr<std::vector<DimExpr>> hostDims(const std::vector<Value *> &entries,
                                                std::string_view what);
  /// The entries of `v`, a vector known only at run time whose length must
  /// be known (it fixes a rank), as i64 scalars; `what` as above.
  absl::StatusOr<std::vector<Value *>> runtimeEntries(Value *v, std::string_view what);
  /// Element k of a vector as an i64 scalar (the scalar itself for rank 0).
  absl::StatusOr<Value *> elementI64(Value *v, int64_t k);
  const OnnxValue *onnxInput(int i) const;

  // --- Attributes.
  bool hasAttr(std::string_view name) const;
  const onnx::AttributeProto *attr(std::string_view name) const;
  int64_t intAttr(std::string_view name, int64_t fallback) const;
  double floatAttr(std::string_view name, double fallback) const;
  std::string stringAttr(std::string_view name, std::string fallback) const;
  std::vector<int64_t> intsAttr(std::string_view name) const;
  std::vector<double> floatsAttr(std::string_view name) const;

  // --- Outputs.
  int numOutputs() const { return node_.output_size(); }
  /// Whether output i is named (used by the graph).
  bool hasOutput(int i) const;
  void setOutput(int i, Value *value);
  void setOutputDims(int i, std::vector<DimExpr> dims, bool scalar = false);

  // --- Building. Errors from the type rules are reported at the node.
  absl::StatusOr<Value *> create(OpKind kind, std::vector<Value *> operands, AttrDict attrs = {},
                                 TensorType type = {});
  /// A constant holding `tensor`'s elements.
  absl::StatusOr<Value *> constant(const HostTensor &tensor);
  /// A constant holding `elements` as they are (initializers: weights are
  /// neither copied nor widened); its value is known to importers only when
  /// they ask for it.
  absl::StatusOr<Value *> constant(std::vector<int64_t> shape,
                                   std::shared_ptr<const DenseElements> elements);
  /// A constant of `type` filled with `v` (symbolic shapes allowed), or
  /// with the one element of `element` (exact for any integer).
  absl::StatusOr<Value *> splat(double v, TensorType type);
  absl::StatusOr<Value *> splat(const HostTensor &element, TensorType type);
  absl::StatusOr<Value *> scalarLike(double v, Value *like);
  /// A rank-0 value of type `t` holding `d`: a constant, or its value at run
  /// time (dim_value) when it is symbolic.
  absl::StatusOr<Value *> dimScalar(const DimExpr &d, ElementType t);
  /// A reshape; where the shape's arithmetic of symbolic dims holds x's
  /// elements only for some sizes (pixel_unshuffle's [B, C, H/2, 2, W/2, 2]),
  /// the sizes it needs become facts each call checks, as ONNX makes any
  /// other size an error at run time.
  absl::StatusOr<Value *> reshape(Value *x, std::vector<DimExpr> shape);
  absl::StatusOr<Value *> cast(Value *x, ElementType to);
  /// numpy broadcasting of `x` to `shape` (right-aligned, size-1 dims repeat).
  absl::StatusOr<Value *> broadcastTo(Value *x, const std::vector<DimExpr> &shape);
  /// The numpy broadcast shape of several shapes; incompatible constant dims
  /// are an error. Two different symbols of the inputs meet in a symbol of
  /// their own, `N_or_M == broadcast(N, M)` (ir/Constraints.h); any other
  /// two different dims (a symbol and a constant, a host symbol) are
  /// recorded as equal.
  absl::StatusOr<std::vector<DimExpr>> broadcastShape(const std::vector<TensorType> &types);
  /// `values` broadcast to their common shape.
  absl::StatusOr<std::vector<Value *>> broadcastAll(std::vector<Value *> values);
  /// An element-wise binary op with numpy broadcasting.
  absl::StatusOr<Value *> binary(OpKind kind, Value *a, Value *b, AttrDict attrs = {});
  absl::StatusOr<Value *> compare(std::string_view dir, Value *a, Value *b);
  absl::StatusOr<Value *> unary(OpKind kind, Value *x);
  /// `select` with numpy broadcasting of all three operands.
  absl::StatusOr<Value *> select(Value *cond, Value *a, Value *b);

  /// A shape from the graph (ConstantOfShape's, Expand's) must not have a
  /// negative dim; `what` names it in the error.
  absl::Status checkShape(const std::vector<DimExpr> &shape, std::string_view what) const;

  /// An axis in [-rank, rank) as [0, rank); an error otherwise.
  absl::StatusOr<int64_t> normalizeAxis(int64_t axis, int64_t rank, std::string_view what) const;

  /// The elements of a value known at import, or nullptr. A weight's
  /// elements are materialized here, on first demand.
  const HostTensor *knownValue(const Value *v) const;

private:
  // The facts that make `shape` hold `count` elements: each divided symbol a
  // multiple of its divisor (H % 2 == 0), or, where that does not settle it,
  // the counts' equality itself. Fails where they cannot be equal.
  absl::Status requireSameCount(const DimExpr &count, const std::vector<DimExpr> &shape);

  std::string nodeDescription() const;
  /// Whether `dim` is a symbol broadcast speculation may keep apart from
  /// another: bound from the inputs' shapes, neither a host symbol nor the
  /// result of a broadcast fact.
  bool speculatable(const DimExpr &dim) const;
  /// The result symbol of `broadcast(a, b)`, recorded on first use.
  absl::StatusOr<DimExpr> broadcastResult(const DimExpr &a, const DimExpr &b);

  GraphState &graph_;
  const onnx::NodeProto &node_;
  int nodeIndex_;
  int opset_;
  Builder builder_;
};

} // namespace xs

#endif // XSTITCH_FRONTEND_ONNX_IMPORTCONTEXT_H
