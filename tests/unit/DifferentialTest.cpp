// Every op of ir/Ops.def (composites decompose into these) compiled for the
// CPU against the reference interpreter, at random inputs and at values of
// the symbolic dims that include 1, primes and a large size that is not a
// multiple of any vector width. One compilation serves every dim value
// (kernels are shape-generic; the second call is a compile-cache hit).

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ir/OpInfo.h"
#include "ir/Parser.h"
#include "tests/unit/TestDevices.h"
#include "tools/common/DifferentialCheck.h"
#include "tools/common/RandomTensor.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

struct OpCase {
  std::string name;
  std::string text; // one function over symbols N and M
  std::map<std::string, RandomRange> ranges = {};
  /// Index parameters: values in [-d, d) for the named dim.
  std::map<std::string, std::string> indexBounds = {};
  std::optional<Tolerance> tolerance = std::nullopt;
  /// Put NaN, +inf and -inf among the float inputs.
  bool specials = false;
  /// The inputs are ones the interpreter refuses (a zero divisor, an index
  /// out of range): compiled code must refuse them too, naming the op.
  bool refused = false;
};

std::string unaryF(const std::string &op, const std::string &type = "f32") {
  return absl::StrCat("func @f(%x: ", type, "[N, M]) -> (y) {\n  %y = ", op,
                      " %x\n  return %y\n}\n");
}
std::string binaryF(const std::string &op, const std::string &type = "f32",
                    const std::string &attrs = "") {
  return absl::StrCat("func @f(%a: ", type, "[N, M], %b: ", type, "[N, M]) -> (y) {\n  %y = ", op,
                      " %a, %b", attrs, "\n  return %y\n}\n");
}
std::string oneOp(const std::string &params, const std::string &op) {
  return absl::StrCat("func @f(", params, ") -> (y) {\n  %y = ", op, "\n  return %y\n}\n");
}

constexpr Tolerance kReduceTolerance{2e-4, 1e-4};

std::vector<OpCase> allCases() {
  std::vector<OpCase> c;
  // Element-wise unary, float.
  for (const char *op :
       {"neg", "abs", "sign", "exp", "tanh", "sigmoid", "erf", "floor", "ceil", "round"})
    c.push_back({op, unaryF(op), {}, {}, std::nullopt, std::string(op) != "exp"});
  c.push_back({"log", unaryF("log"), {{"x", {0.01, 8}}}});
  c.push_back({"log1p", unaryF("log1p"), {{"x", {-0.9, 8}}}});
  c.push_back({"sqrt", unaryF("sqrt"), {{"x", {0, 8}}}});
  c.push_back({"rsqrt", unaryF("rsqrt"), {{"x", {0.01, 8}}}});
  c.push_back({"reciprocal", unaryF("reciprocal"), {{"x", {0.1, 8}}}});
  c.push_back({"sin", unaryF("sin"), {{"x", {-10, 10}}}});
  c.push_back({"cos", unaryF("cos"), {{"x", {-10, 10}}}});
  c.push_back({"is_nan", oneOp("%x: f32[N, M]", "is_nan %x"), {}, {}, std::nullopt, true});
  c.push_back({"is_inf", oneOp("%x: f32[N, M]", "is_inf %x"), {}, {}, std::nullopt, true});
  c.push_back({"not_i1", unaryF("not", "i1")});
  c.push_back({"not_i32", unaryF("not", "i32"), {{"x", {-100, 100}}}});
  // Other element types.
  c.push_back({"exp_f64", unaryF("exp", "f64")});
  c.push_back({"tanh_f16", unaryF("tanh", "f16")});
  c.push_back({"neg_i8", unaryF("neg", "i8"), {{"x", {-128, 128}}}});
  c.push_back({"abs_i32", unaryF("abs", "i32"), {{"x", {-50, 50}}}});
  c.push_back({"sign_i64", unaryF("sign", "i64"), {{"x", {-3, 3}}}});

  // Element-wise binary.
  for (const char *op : {"add", "sub", "mul", "max", "min"})
    c.push_back({op, binaryF(op), {}, {}, std::nullopt, true});
  c.push_back({"div", binaryF("div"), {{"b", {0.25, 4}}}});
  c.push_back({"rem", binaryF("rem"), {{"a", {-8, 8}}, {"b", {0.5, 3}}}});
  c.push_back({"pow", binaryF("pow"), {{"a", {0.1, 3}}, {"b", {-2, 2}}}});
  c.push_back({"add_f16", binaryF("add", "f16")});
  c.push_back({"mul_bf16", binaryF("mul", "bf16")});
  c.push_back({"sub_f64", binaryF("sub", "f64")});
  c.push_back({"add_u8", binaryF("add", "u8"), {{"a", {0, 256}}, {"b", {0, 256}}}});
  c.push_back({"mul_i64", binaryF("mul", "i64"), {{"a", {-1000, 1000}}, {"b", {-1000, 1000}}}});
  c.push_back({"div_i32", binaryF("div", "i32"), {{"a", {-50, 50}}, {"b", {1, 9}}}});
  c.push_back({"rem_i32", binaryF("rem", "i32"), {{"a", {-50, 50}}, {"b", {1, 9}}}});
  c.push_back({"pow_i32", binaryF("pow", "i32"), {{"a", {-4, 5}}, {"b", {0, 5}}}});
  c.push_back({"max_i8", binaryF("max", "i8"), {{"a", {-128, 128}}, {"b", {-128, 128}}}});
  for (const char *op : {"and", "or", "xor"}) {
    c.push_back({absl::StrCat(op, "_i1"), binaryF(op, "i1")});
    c.push_back(
        {absl::StrCat(op, "_i32"), binaryF(op, "i32"), {{"a", {-99, 99}}, {"b", {-99, 99}}}});
  }
  for (const char *dir : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    c.push_back({absl::StrCat("compare_", dir),
                 binaryF("compare", "f32", absl::StrCat(" {dir = ", dir, "}")),
                 {},
                 {},
                 std::nullopt,
                 true});
    c.push_back({absl::StrCat("compare_i32_", dir),
                 binaryF("compare", "i32", absl::StrCat(" {dir = ", dir, "}")),
                 {{"a", {0, 3}}, {"b", {0, 3}}}});
  }
  c.push_back({"select", oneOp("%c: i1[N, M], %a: f32[N, M], %b: f32[N, M]", "select %c, %a, %b")});
  // Casts.
  for (const char *to : {"i32", "i8", "f16", "bf16", "f64", "i1"})
    c.push_back({absl::StrCat("cast_f32_", to),
                 oneOp("%x: f32[N, M]", absl::StrCat("cast %x {to = ", to, "}")),
                 {{"x", {-300, 300}}}});
  c.push_back({"cast_i32_f32", oneOp("%x: i32[N, M]", "cast %x {to = f32}"), {{"x", {-1e6, 1e6}}}});
  c.push_back({"cast_i64_i8", oneOp("%x: i64[N, M]", "cast %x {to = i8}"), {{"x", {-1000, 1000}}}});
  c.push_back({"cast_f16_f32", oneOp("%x: f16[N, M]", "cast %x {to = f32}")});

  // Values near the types' limits: f32 and f16 sums and products that
  // overflow to inf (the interpreter rounds each op, as compiled code
  // does), integers that wrap, float -> integer casts beyond the target's
  // range and beyond 2^63, which wrap modulo 2^width.
  c.push_back({"add_f32_overflow", binaryF("add"), {{"a", {1e38, 3.4e38}}, {"b", {1e38, 3.4e38}}}});
  c.push_back({"mul_f32_overflow", binaryF("mul"), {{"a", {-2e19, 2e19}}, {"b", {1e19, 2e19}}}});
  c.push_back(
      {"add_f16_overflow", binaryF("add", "f16"), {{"a", {3e4, 65504}}, {"b", {3e4, 65504}}}});
  c.push_back({"add_i32_wrap",
               binaryF("add", "i32"),
               {{"a", {1 << 30, 2147483647}}, {"b", {1 << 30, 2147483647}}}});
  c.push_back({"mul_i8_wrap", binaryF("mul", "i8"), {{"a", {-128, 128}}, {"b", {-128, 128}}}});
  c.push_back(
      {"cast_f32_i32_wrap", oneOp("%x: f32[N, M]", "cast %x {to = i32}"), {{"x", {-1e10, 1e10}}}});
  c.push_back({"cast_f32_i64_beyond",
               oneOp("%x: f32[N, M]", "cast %x {to = i64}"),
               {{"x", {-1e20, 1e20}}}});
  c.push_back(
      {"cast_f64_u8_wrap", oneOp("%x: f64[N, M]", "cast %x {to = u8}"), {{"x", {-1e4, 1e4}}}});

  // Sources (used by an op so that they are not folded into a result).
  c.push_back({"constant", "func @f(%x: f32[N, M]) -> (y) {\n  %c = constant {value = 0.75} : "
                           "f32[N, M]\n  %y = mul %x, %c\n  return %y\n}\n"});
  c.push_back({"constant_dense",
               "func @f(%x: f32[N, 3]) -> (y) {\n  %c = constant {value = dense<[1.5, -2, 4]>} : "
               "f32[3]\n  %b = broadcast %c {dims = [1]} : f32[N, 3]\n  %y = add %x, %b\n"
               "  return %y\n}\n"});
  c.push_back({"iota_f32", "func @f(%x: f32[N, M]) -> (y) {\n  %i = iota {dim = 1} : f32[N, M]\n"
                           "  %y = add %x, %i\n  return %y\n}\n"});
  c.push_back({"iota_i32", "func @f(%x: i32[N, M]) -> (y) {\n  %i = iota {dim = 0} : i32[N, M]\n"
                           "  %y = add %x, %i\n  return %y\n}\n"});
  c.push_back({"dim_value_f32",
               "func @f(%x: f32[N, M]) -> (y) {\n  %n = dim_value {dims = [N*M - 1]} : f32[N, M]\n"
               "  %y = div %x, %n\n  return %y\n}\n"});
  c.push_back({"dim_value_vector", "func @f(%s: f32[N, M], %x: i64[3]) -> (y, t) {\n"
                                   "  %v = dim_value {dims = [N, M, N + M]} : i64[3]\n"
                                   "  %y = add %x, %v\n  %t = neg %s\n  return %y, %t\n}\n"});
  // Host symbols: dims computed from the dims at each call (floor(1.5 * N),
  // M / N), used for sizes, slice bounds and as data.
  c.push_back({"host_symbol_scaled",
               "func @f(%x: f32[N, M]) -> (y)\n    host_symbols H {\n"
               "      %n = dim_value {dims = [N]} : f32[]\n"
               "      %k = constant {value = 1.5} : f32[]\n      %m = mul %n, %k : f32[]\n"
               "      %fl = floor %m : f32[]\n      %h = cast %fl {to = i64} : i64[]\n"
               "      return %h\n    } {\n"
               "  %i = iota {dim = 1} : f32[N, H]\n  %r = reduce_sum %x {dims = [1]} : f32[N]\n"
               "  %b = broadcast %r {dims = [0]} : f32[N, H]\n  %y = add %i, %b\n"
               "  return %y\n}\n"});
  c.push_back({"host_symbol_divided",
               "func @f(%x: f32[N, M]) -> (y)\n    host_symbols Q {\n"
               "      %n = dim_value {dims = [N]} : i64[]\n"
               "      %m = dim_value {dims = [M]} : i64[]\n      %q = div %m, %n : i64[]\n"
               "      return %q\n    } {\n"
               "  %s = slice %x {limit = [N, Q], start = [0, 0]}\n"
               "  %v = dim_value {dims = [Q]} : f32[N, Q]\n  %y = mul %s, %v\n"
               "  return %y\n}\n"});

  // Shape and data movement.
  // The added operand binds the dims the broadcast introduces.
  auto broadcastCase = [](const std::string &name, const std::string &from,
                          const std::string &dims) {
    return OpCase{name, absl::StrCat("func @f(%x: f32[", from,
                                     "], %z: f32[N, M]) -> (y) {\n"
                                     "  %b = broadcast %x {dims = ",
                                     dims, "} : f32[N, M]\n  %y = add %b, %z\n  return %y\n}\n")};
  };
  c.push_back(broadcastCase("broadcast_row", "M", "[1]"));
  c.push_back(broadcastCase("broadcast_col", "N", "[0]"));
  c.push_back(broadcastCase("broadcast_one", "N, 1", "[0, 1]"));
  c.push_back(broadcastCase("broadcast_scalar", "", "[]"));
  c.push_back(
      {"broadcast_3d", oneOp("%x: f32[N, M]", "broadcast %x {dims = [0, 2]} : f32[N, 3, M]")});
  c.push_back({"reshape_merge", "func @f(%x: f32[N, M]) -> (y) {\n  %r = reshape %x : f32[N*M]\n"
                                "  %y = neg %r\n  return %y\n}\n"});
  c.push_back({"reshape_split", "func @f(%x: f32[N, 6]) -> (y) {\n  %r = reshape %x : "
                                "f32[N, 2, 3]\n  %y = neg %r\n  return %y\n}\n"});
  c.push_back({"transpose_2d", oneOp("%x: f32[N, M]", "transpose %x {perm = [1, 0]}")});
  c.push_back({"transpose_3d", oneOp("%x: f32[N, 5, M]", "transpose %x {perm = [2, 0, 1]}")});
  c.push_back({"transpose_i64", oneOp("%x: i64[N, 3, M]", "transpose %x {perm = [0, 2, 1]}")});
  c.push_back({"slice_step", oneOp("%x: f32[N, M]", "slice %x {limit = [N, M], start = [0, 0], "
                                                    "step = [2, 3]}")});
  c.push_back({"slice_static", oneOp("%x: f32[N, 10]", "slice %x {limit = [N, 9], start = [0, 2], "
                                                       "step = [1, 3]}")});
  c.push_back({"slice_symbolic_start",
               oneOp("%x: f32[N, M]", "slice %x {limit = [N, M], start = [N - 1, 0]}")});
  c.push_back({"concat_0", oneOp("%a: f32[N, M], %b: f32[3, M]", "concat %a, %b {dim = 0}")});
  c.push_back({"concat_1_three", oneOp("%a: f32[N, M], %b: f32[N, 2], %c: f32[N, M]",
                                       "concat %a, %b, %c {dim = 1}")});
  c.push_back({"pad_constant", oneOp("%x: f32[N, M]", "pad %x {high = [2, 0], low = [1, 3], "
                                                      "value = 1.5}")});
  c.push_back({"pad_edge", oneOp("%x: f32[N, M]", "pad %x {high = [1, 2], low = [2, 1], "
                                                  "mode = edge}")});
  c.push_back({"pad_reflect", oneOp("%x: f32[N, 8]", "pad %x {high = [0, 3], low = [0, 2], "
                                                     "mode = reflect}")});
  c.push_back({"gather_0",
               oneOp("%x: f32[N, M], %i: i32[5]", "gather %x, %i {dim = 0}"),
               {},
               {{"i", "N"}}});
  c.push_back({"gather_1_2d",
               oneOp("%x: f32[N, M], %i: i64[3, N]", "gather %x, %i {dim = 1}"),
               {},
               {{"i", "M"}}});
  c.push_back({"take_along_axis",
               oneOp("%x: f32[N, M], %i: i32[N, 4]", "take_along_axis %x, %i {dim = 1}"),
               {},
               {{"i", "M"}}});

  // Reductions: rows, columns, everything, a middle dim, the outer dims.
  for (const char *op : {"reduce_sum", "reduce_max", "reduce_min"}) {
    bool nan = std::string(op) != "reduce_sum";
    c.push_back({absl::StrCat(op, "_rows"),
                 oneOp("%x: f32[N, M]", absl::StrCat(op, " %x {dims = [1]}")),
                 {},
                 {},
                 kReduceTolerance,
                 nan});
    c.push_back({absl::StrCat(op, "_cols"),
                 oneOp("%x: f32[N, M]", absl::StrCat(op, " %x {dims = [0]}")),
                 {},
                 {},
                 kReduceTolerance});
    c.push_back({absl::StrCat(op, "_all"),
                 oneOp("%x: f32[N, M]", absl::StrCat(op, " %x {dims = [0, 1]}")),
                 {},
                 {},
                 kReduceTolerance});
    // Few constant columns: narrow strips (on GPUs, row groups of lanes).
    c.push_back({absl::StrCat(op, "_cols_narrow"),
                 oneOp("%x: f32[N, 40]", absl::StrCat(op, " %x {dims = [0]}")),
                 {},
                 {},
                 kReduceTolerance});
    c.push_back({absl::StrCat(op, "_middle"),
                 oneOp("%x: f32[N, 3, M]", absl::StrCat(op, " %x {dims = [1]}")),
                 {},
                 {},
                 kReduceTolerance});
    // Dims apart: the Generic mapping, each result looping over its own.
    c.push_back({absl::StrCat(op, "_outer_dims"),
                 oneOp("%x: f32[N, 3, M]", absl::StrCat(op, " %x {dims = [0, 2]}")),
                 {},
                 {},
                 kReduceTolerance,
                 nan});
  }
  c.push_back({"reduce_prod_rows",
               oneOp("%x: f32[N, M]", "reduce_prod %x {dims = [1]}"),
               {{"x", {0.99, 1.01}}},
               {},
               kReduceTolerance});
  c.push_back({"reduce_prod_cols",
               oneOp("%x: f32[N, M]", "reduce_prod %x {dims = [0]}"),
               {{"x", {0.99, 1.01}}},
               {},
               kReduceTolerance});
  c.push_back({"reduce_sum_i32",
               oneOp("%x: i32[N, M]", "reduce_sum %x {dims = [1]}"),
               {{"x", {-100, 100}}}});
  c.push_back({"reduce_max_i64",
               oneOp("%x: i64[N, M]", "reduce_max %x {dims = [0]}"),
               {{"x", {-100, 100}}}});
  c.push_back({"reduce_sum_f16", oneOp("%x: f16[N, 7]", "reduce_sum %x {dims = [1]}")});
  // Scans: along rows and down columns, every flag, integers wrapping
  // exactly, 16-bit floats summed wide; and stitched with what reads them.
  c.push_back({"cumsum_rows", oneOp("%x: f32[N, M]", "cumsum %x {dim = 1}")});
  c.push_back(
      {"cumsum_cols_exclusive", oneOp("%x: f32[N, M]", "cumsum %x {dim = 0, exclusive = 1}")});
  c.push_back(
      {"cumsum_middle_reverse", oneOp("%x: f64[N, M, 3]", "cumsum %x {dim = 1, reverse = 1}")});
  c.push_back({"cumsum_i32_wrap",
               oneOp("%x: i32[N, M]", "cumsum %x {dim = 1, exclusive = 1, reverse = 1}"),
               {{"x", {1.0e9, 2.0e9}}}});
  c.push_back({"cumsum_f16", oneOp("%x: f16[N, M]", "cumsum %x {dim = 1}")});
  c.push_back({"cumsum_position_ids",
               "func @f(%mask: i64[N, M]) -> (ids) {\n  %c = cumsum %mask {dim = 1}\n"
               "  %m = mul %c, %mask\n  %one = constant {value = 1} : i64[N, M]\n"
               "  %ids = add %m, %one\n  return %ids\n}\n",
               {{"mask", {0, 2}}}});
  // top_k: along rows (the CPU's chunked walk: 40 and 1003 elements),
  // down columns, a middle dim; many ties (the lower index first); the
  // values picked with take_along_axis in the same kernel. k = 1 where the
  // dim may be 1.
  c.push_back({"topk_rows", oneOp("%x: f32[N, 1003]", "top_k %x {dim = 1, k = 7}")});
  c.push_back(
      {"topk_rows_smallest", oneOp("%x: f32[N, M]", "top_k %x {dim = 1, k = 1, largest = 0}")});
  c.push_back({"topk_cols", oneOp("%x: f32[20, M]", "top_k %x {dim = 0, k = 5}")});
  c.push_back(
      {"topk_middle_f64", oneOp("%x: f64[N, 12, M]", "top_k %x {dim = 1, k = 4, largest = 0}")});
  c.push_back(
      {"topk_ties_i32", oneOp("%x: i32[N, 40]", "top_k %x {dim = 1, k = 10}"), {{"x", {0, 3}}}});
  c.push_back({"topk_f16", oneOp("%x: f16[N, 64]", "top_k %x {dim = 1, k = 3}")});
  c.push_back({"topk_values",
               "func @f(%x: f32[N, 300]) -> (y) {\n  %s = mul %x, %x\n"
               "  %i = top_k %s {dim = 1, k = 9}\n  %y = take_along_axis %s, %i {dim = 1}\n"
               "  return %y\n}\n"});
  for (const char *op : {"argmax", "argmin"}) {
    c.push_back(
        {absl::StrCat(op, "_rows"), oneOp("%x: f32[N, M]", absl::StrCat(op, " %x {dim = 1}"))});
    c.push_back(
        {absl::StrCat(op, "_cols"), oneOp("%x: f32[N, M]", absl::StrCat(op, " %x {dim = 0}"))});
    // Down constant columns with ties (the Generic mapping: on GPUs a lane
    // per result for few rows, else the lanes split each result and merge,
    // keeping the first extreme).
    c.push_back({absl::StrCat(op, "_cols_ties_i32"),
                 oneOp("%x: i32[N, 40]", absl::StrCat(op, " %x {dim = 0}")),
                 {{"x", {0, 3}}}});
    // Many ties: the first extreme wins.
    c.push_back({absl::StrCat(op, "_ties_i32"),
                 oneOp("%x: i32[N, M]", absl::StrCat(op, " %x {dim = 1}")),
                 {{"x", {0, 3}}}});
  }

  // A concat whose operands may be empty (their size a product of dims)
  // branches between them per element; the loop vectorizer turns that into
  // masked loads addressed from the first lane, which once faulted where
  // that lane's index into the other operand went negative.
  c.push_back({"concat_of_reshaped_dims",
               "func @f(%x: f32[N, M, M]) -> (y) {\n  %a = abs %x\n"
               "  %r = reshape %a : f32[N, M*M]\n  %c = cos %r\n  %m = max %r, %c\n"
               "  %k = concat %m, %r {dim = 1}\n  %y = reduce_min %k {dims = [0]}\n"
               "  return %y\n}\n"});

  // Concat of operands that may be empty (M = 0), each a row's gathered
  // value broadcast along the rows: the per-element branches that once chose
  // the operand were vectorized into masked loads that read another row
  // (the one-hour random-graph run found it: seed 20295565).
  c.push_back({"concat_of_broadcast_gathers",
               "func @f(%x: f32[N, M], %i: i32[1]) -> (y) {\n  %g = gather %x, %i {dim = 1}\n"
               "  %r = reshape %g : f32[N]\n  %b = broadcast %r {dims = [0]} : f32[N, M]\n"
               "  %n = neg %b\n  %y = concat %b, %n, %b {dim = 1}\n  return %y\n}\n",
               {},
               {{"i", "M"}}});

  // A row reduction kept in a block buffer for a column reduction split
  // over blocks: the combine reads the partials, not the buffer (the
  // one-hour random-graph run found the emitter refusing it: seed 30272449).
  c.push_back({"column_split_of_row_reduction",
               "func @f(%x: f32[N, 1, M]) -> (y) {\n  %r = reduce_prod %x {dims = [2]}\n"
               "  %y = reduce_max %r {dims = [0]}\n  return %y\n}\n"});

  // exp of a difference whose subtrahend is an iota (no operands to look
  // through for softmax's maximum; once crashed the element generator).
  c.push_back({"exp_of_x_minus_iota",
               "func @f(%x: f32[N, M]) -> (y) {\n  %i = iota {dim = 1} : f32[N, M]\n"
               "  %d = sub %x, %i\n  %y = exp %d\n  return %y\n}\n"});

  // Inputs the interpreter refuses: compiled code reports the same error
  // instead of computing on (docs/ir.md, HostPlan::checks).
  c.push_back({"div_i32_by_zero", binaryF("div", "i32"), {{"a", {-50, 50}}, {"b", {0, 1}}}});
  c.back().refused = true;
  c.push_back({"rem_i64_by_zero", binaryF("rem", "i64"), {{"a", {-50, 50}}, {"b", {0, 1}}}});
  c.back().refused = true;
  c.push_back({"pow_i32_zero_to_negative", binaryF("pow", "i32"), {{"a", {0, 1}}, {"b", {-3, 0}}}});
  c.back().refused = true;
  c.push_back({"gather_index_too_large",
               oneOp("%x: f32[N, M], %i: i32[5]", "gather %x, %i {dim = 0}"),
               {{"i", {2000, 2001}}}});
  c.back().refused = true;
  c.push_back({"gather_index_too_negative",
               oneOp("%x: f32[N, M], %i: i64[3, N]", "gather %x, %i {dim = 1}"),
               {{"i", {-5000, -4999}}}});
  c.back().refused = true;
  c.push_back({"take_along_axis_index_out_of_range",
               oneOp("%x: f32[N, M], %i: i32[N, 4]", "take_along_axis %x, %i {dim = 1}"),
               {{"i", {-3000, 3001}}}});
  c.back().refused = true;

  // Library.
  c.push_back(
      {"dot", oneOp("%a: f32[N, 7], %b: f32[7, M]", "dot %a, %b"), {}, {}, Tolerance{1e-4, 1e-4}});
  return c;
}

void PrintTo(const OpCase &c, std::ostream *os) { *os << c.name; }

// Dims: 1 everywhere, small primes, large sizes not a multiple of any
// vector width, and rows long enough and aligned for GPU lanes to take runs
// of a 128-bit vector's elements (emitRowColumns).
const std::vector<DimBindings> kDimSets = {
    {{"N", 1}, {"M", 1}},    {{"N", 7}, {"M", 13}},   {{"N", 13}, {"M", 1}},
    {{"N", 3}, {"M", 1003}}, {{"N", 1003}, {"M", 5}}, {{"N", 5}, {"M", 1024}},
};

std::vector<HostTensor> makeInputs(const Function &f, const OpCase &c, const DimBindings &dims,
                                   std::mt19937_64 &rng) {
  std::vector<HostTensor> inputs;
  for (const auto &p : f.params()) {
    std::vector<int64_t> shape;
    for (const DimExpr &d : p->type().shape())
      shape.push_back(d.evaluate(dims).value());
    ElementType t = p->type().elementType();
    RandomRange range = defaultRandomRange(t);
    if (auto it = c.ranges.find(p->name()); it != c.ranges.end())
      range = it->second;
    if (auto it = c.indexBounds.find(p->name()); it != c.indexBounds.end()) {
      double bound = static_cast<double>(dims.at(it->second));
      range = {-bound, bound};
    }
    HostTensor tensor = randomTensor(t, shape, range, rng);
    if (c.specials && isFloat(t)) {
      const double kSpecials[] = {std::nan(""), INFINITY, -INFINITY};
      for (int64_t i = 0; i < tensor.numElements(); ++i)
        if (i % 7 == 3)
          tensor.setDouble(i, kSpecials[(i / 7) % 3]);
    }
    inputs.push_back(std::move(tensor));
  }
  return inputs;
}

// Cases IEEE arithmetic rounds correctly: compiled code and the interpreter,
// which rounds each result to its type, agree bit for bit (the random
// inputs are normal numbers, so flushing subnormals changes nothing).
// Comparisons are exact too (every name starting "compare").
// clang-format off
constexpr const char *kExactCases[] = {
    "neg", "abs", "sign", "floor", "ceil", "round", "sqrt", "reciprocal",
    "add", "sub", "mul", "max", "min", "div", "add_f16", "mul_bf16", "sub_f64", "select",
    "cast_f32_i32", "cast_f32_i8", "cast_f32_f16", "cast_f32_bf16", "cast_f32_f64",
    "cast_f32_i1", "cast_i32_f32", "cast_f16_f32",
    "add_f32_overflow", "mul_f32_overflow", "add_f16_overflow",
    "cast_f32_i32_wrap", "cast_f32_i64_beyond", "cast_f64_u8_wrap", "cumsum_i32_wrap",
    "cumsum_position_ids", "topk_rows", "topk_rows_smallest", "topk_cols", "topk_middle_f64",
    "topk_ties_i32", "topk_f16", "topk_values"};
// clang-format on

bool isExact(const std::string &name) {
  return absl::StartsWith(name, "compare") ||
         std::find(std::begin(kExactCases), std::end(kExactCases), name) != std::end(kExactCases);
}

// Elsewhere the default tolerance of the least precise type among the
// parameters and the result: what the backends' math functions and
// summation orders may differ by.
Tolerance loosestTolerance(const Function &f) {
  std::vector<ElementType> types;
  for (const auto &p : f.params())
    types.push_back(p->type().elementType());
  types.push_back(f.ops().back()->type().elementType());
  Tolerance loosest{0, 0};
  for (ElementType t : types) {
    Tolerance tol = defaultTolerance(t);
    loosest = {std::max(loosest.atol, tol.atol), std::max(loosest.rtol, tol.rtol)};
  }
  return loosest;
}

class DifferentialTest : public ::testing::TestWithParam<std::tuple<OpCase, std::string>> {};

TEST_P(DifferentialTest, CompiledMatchesInterpreter) {
  const OpCase &c = std::get<0>(GetParam());
  CompileOptions options;
  options.device = std::get<1>(GetParam());
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(c.text, {"shape-inference"});
  ASSERT_TRUE(module.ok()) << module.status().message() << "\n" << c.text;
  const Function &f = *(*module)->functions().front();
  std::mt19937_64 rng(std::hash<std::string>()(c.name));
  for (const DimBindings &dims : kDimSets) {
    std::vector<HostTensor> inputs = makeInputs(f, c, dims, rng);
    Tolerance tol = isExact(c.name) ? Tolerance{0, 0} : c.tolerance.value_or(loosestTolerance(f));
    absl::StatusOr<DifferentialResult> result = runDifferential(c.text, inputs, options, tol);
    ASSERT_TRUE(result.ok()) << "N=" << dims.at("N") << " M=" << dims.at("M") << ": "
                             << result.status().message() << "\n"
                             << c.text;
    EXPECT_TRUE(result->passed) << "N=" << dims.at("N") << " M=" << dims.at("M") << ":\n"
                                << result->message << c.text;
    EXPECT_EQ(result->refused, c.refused)
        << "N=" << dims.at("N") << " M=" << dims.at("M") << ": " << result->message << c.text;
    if (c.refused)
      EXPECT_TRUE(absl::StrContains(result->message, "compiled code: @f: %y = "))
          << "the compiled run's error names no op: " << result->message;
  }
}

// Every case on every device present (TestDevices.h).
INSTANTIATE_TEST_SUITE_P(Ops, DifferentialTest,
                         ::testing::Combine(::testing::ValuesIn(allCases()),
                                            ::testing::ValuesIn(compiledTestDevices())),
                         [](const ::testing::TestParamInfo<std::tuple<OpCase, std::string>> &info) {
                           const std::string &device = std::get<1>(info.param);
                           return device == "cpu"
                                      ? std::get<0>(info.param).name
                                      : std::get<0>(info.param).name + "_" + deviceTestName(device);
                         });

// Column reductions over many rows split into per-block partials and a
// combine (the variants for tall shapes): their accumulators take block
// buffers the launch must reserve (a launch that reserved none faulted on a
// GPU at bias_grad's shape). Tall shapes the table above stays below.
class SplitColumnReductionTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SplitColumnReductionTest, CompiledMatchesInterpreter) {
  const std::vector<OpCase> cases = {
      {"column_sum", oneOp("%x: f32[N, M]", "reduce_sum %x {dims = [0]}")},
      {"column_max_f16", oneOp("%x: f16[N, M]", "reduce_max %x {dims = [0]}")},
      {"column_sum_and_squares",
       "func @f(%x: f32[N, M]) -> (s, q) {\n  %s = reduce_sum %x {dims = [0]}\n"
       "  %x2 = mul %x, %x\n  %q = reduce_sum %x2 {dims = [0]}\n  return %s, %q\n}\n"},
      {"row_scale_then_column_sum",
       "func @f(%x: f32[N, M]) -> (y, s) {\n  %m = reduce_max %x {dims = [1]}\n"
       "  %mb = broadcast %m {dims = [0]} : f32[N, M]\n  %y = sub %x, %mb\n"
       "  %s = reduce_sum %y {dims = [0]}\n  return %y, %s\n}\n"},
  };
  const std::vector<DimBindings> tall = {{{"N", 1531}, {"M", 1024}}, {{"N", 2048}, {"M", 37}}};
  CompileOptions options;
  options.device = GetParam();
  for (const OpCase &c : cases) {
    absl::StatusOr<std::unique_ptr<Module>> module =
        parseSingleFunction(c.text, {"shape-inference"});
    ASSERT_TRUE(module.ok()) << module.status().message() << "\n" << c.text;
    const Function &f = *(*module)->functions().front();
    std::mt19937_64 rng(std::hash<std::string>()(c.name));
    for (const DimBindings &dims : tall) {
      std::vector<HostTensor> inputs = makeInputs(f, c, dims, rng);
      absl::StatusOr<DifferentialResult> result =
          runDifferential(c.text, inputs, options, loosestTolerance(f));
      ASSERT_TRUE(result.ok()) << c.name << " N=" << dims.at("N") << " M=" << dims.at("M") << ": "
                               << result.status().message();
      EXPECT_TRUE(result->passed) << c.name << " N=" << dims.at("N") << " M=" << dims.at("M")
                                  << ":\n"
                                  << result->message;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, SplitColumnReductionTest,
                         ::testing::ValuesIn(compiledTestDevices()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return deviceTestName(info.param);
                         });

TEST(TestDevices, RequiredDevicesArePresent) {
  if (std::string required = requiredTestPlatform(); !required.empty())
    EXPECT_TRUE(testDevicePresent(required))
        << "XSTITCH_REQUIRE_DEVICE=" << required
        << " but no GPU of that platform that xstitch compiles for and runs on is present";
}

// The table above covers every op but the composites, which the pipeline
// decomposes before compiling.
// A name in kExactCases that names no case would leave a case loose.
TEST(DifferentialCoverageTest, EveryExactNameIsACase) {
  std::set<std::string> names;
  for (const OpCase &c : allCases())
    names.insert(c.name);
  for (const char *name : kExactCases)
    EXPECT_TRUE(names.count(name)) << name << " names no differential case";
}

TEST(DifferentialCoverageTest, EveryNonCompositeOpIsTested) {
  std::set<std::string> tested;
  for (const OpCase &c : allCases()) {
    absl::StatusOr<std::unique_ptr<Module>> module = parseModule(c.text, "case.xs");
    ASSERT_TRUE(module.ok()) << c.name << ": " << module.status().message();
    for (const auto &op : (*module)->functions().front()->ops())
      tested.insert(std::string(op->mnemonic()));
  }
  for (const OpInfo &info : allOpInfos())
    if (info.category != OpCategory::Composite)
      EXPECT_TRUE(tested.count(std::string(info.mnemonic)))
          << "no differential case for " << info.mnemonic;
}

} // namespace
} // namespace xs
