#!/usr/bin/env python3
"""Writes the small ONNX models of the frontend's error and import tests.

Needs Debian's python3-onnx (scripts/setup.sh installs it):
    /usr/bin/python3 tests/frontend/onnx/models/make_models.py
"""
import os

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))


def save(graph, name, opset=17, domains=()):
    imports = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains]
    model = helper.make_model(graph, opset_imports=imports, producer_name="xstitch-tests")
    model.ir_version = 8
    onnx.save(model, os.path.join(HERE, name))
    return model


def tensor(name, elem=TensorProto.FLOAT, shape=("N", 4)):
    return helper.make_tensor_value_info(name, elem, list(shape))


def main():
    # A supported graph: numpy broadcasting, a Shape -> Gather -> Concat ->
    # Reshape chain on the dynamic dim N, and an unnamed dynamic dim.
    nodes = [
        helper.make_node("Add", ["x", "b"], ["s"], name="add"),
        helper.make_node("Shape", ["s"], ["shape"], name="shape"),
        helper.make_node("Gather", ["shape", "zero"], ["n"], name="n", axis=0),
        helper.make_node("Concat", ["n", "minus_one"], ["target"], name="target", axis=0),
        helper.make_node("Reshape", ["s", "target"], ["flat"], name="flat"),
        helper.make_node("ReduceSum", ["flat", "one"], ["y"], name="sum", keepdims=0),
        helper.make_node("Relu", ["z"], ["r"], name="relu"),
    ]
    inits = [
        helper.make_tensor("b", TensorProto.FLOAT, [4], [1.0, 2.0, 3.0, 4.0]),
        helper.make_tensor("zero", TensorProto.INT64, [1], [0]),
        helper.make_tensor("minus_one", TensorProto.INT64, [1], [-1]),
        helper.make_tensor("one", TensorProto.INT64, [1], [1]),
    ]
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, [None, 3])
    save(helper.make_graph(nodes, "dynamic", [tensor("x", shape=("N", 2, 4)), z],
                           [tensor("y", shape=("N",)), tensor("r", shape=(None, 3))], inits),
         "dynamic.onnx")

    # Shape computations on the symbolic dims B and S: a Slice ending at
    # S - 1, a Range to S, an Expand and a ConstantOfShape with computed
    # shapes, a Reshape to [B*S, -1].
    i64 = TensorProto.INT64
    chain = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero_s"], ["b"], axis=0),
        helper.make_node("Gather", ["shape", "one_s"], ["s"], axis=0),
        helper.make_node("Sub", ["s", "one_s"], ["s_minus_1"]),
        helper.make_node("Unsqueeze", ["s_minus_1", "axes0"], ["ends"]),
        helper.make_node("Slice", ["x", "starts", "ends", "axes1"], ["sliced"]),
        helper.make_node("Range", ["zero_s", "s", "one_s"], ["positions"]),
        helper.make_node("Cast", ["positions"], ["positions_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["positions_f", "axes1"], ["column"]),
        helper.make_node("Unsqueeze", ["s", "axes0"], ["s_vec"]),
        helper.make_node("Concat", ["s_vec", "eight"], ["grid_shape"], axis=0),
        helper.make_node("Expand", ["column", "grid_shape"], ["grid"]),
        helper.make_node("Add", ["x", "grid"], ["shifted"]),
        helper.make_node("ConstantOfShape", ["shape"], ["twos"],
                         value=helper.make_tensor("v", TensorProto.FLOAT, [1], [2.0])),
        helper.make_node("Mul", ["shifted", "twos"], ["scaled"]),
        helper.make_node("Mul", ["b", "s"], ["rows"]),
        helper.make_node("Unsqueeze", ["rows", "axes0"], ["rows_vec"]),
        helper.make_node("Concat", ["rows_vec", "minus_one"], ["flat_shape"], axis=0),
        helper.make_node("Reshape", ["scaled", "flat_shape"], ["flat"]),
    ]
    chain_inits = [
        helper.make_tensor("zero_s", i64, [], [0]),
        helper.make_tensor("one_s", i64, [], [1]),
        helper.make_tensor("axes0", i64, [1], [0]),
        helper.make_tensor("axes1", i64, [1], [1]),
        helper.make_tensor("starts", i64, [1], [1]),
        helper.make_tensor("eight", i64, [1], [8]),
        helper.make_tensor("minus_one", i64, [1], [-1]),
    ]
    save(helper.make_graph(chain, "shape_chains", [tensor("x", shape=("B", "S", 8))],
                           [tensor("sliced", shape=("B", None, 8)),
                            tensor("flat", shape=(None, 8))], chain_inits),
         "shape_chains.onnx")

    # Symbolic dims as data: x / sqrt(S), and a mean as a sum over Size(x).
    as_data = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "one_s"], ["s"], axis=0),
        helper.make_node("Cast", ["s"], ["s_f"], to=TensorProto.FLOAT),
        helper.make_node("Sqrt", ["s_f"], ["root"]),
        helper.make_node("Div", ["x", "root"], ["y"]),
        helper.make_node("Size", ["x"], ["count"]),
        helper.make_node("Cast", ["count"], ["count_f"], to=TensorProto.FLOAT),
        helper.make_node("ReduceSum", ["x"], ["total"], keepdims=0),
        helper.make_node("Div", ["total", "count_f"], ["mean"]),
    ]
    save(helper.make_graph(as_data, "dims_as_data", [tensor("x", shape=("B", "S"))],
                           [tensor("y", shape=("B", "S")), tensor("mean", shape=())],
                           [helper.make_tensor("one_s", i64, [], [1])]),
         "dims_as_data.onnx")

    # A mean over the dynamic dim: its count is symbolic.
    mean = [helper.make_node("ReduceMean", ["x"], ["y"], axes=[0], keepdims=0)]
    save(helper.make_graph(mean, "mean", [tensor("x")], [tensor("y", shape=(4,))]),
         "mean_over_batch.onnx")

    add = [helper.make_node("Add", ["x", "x"], ["y"], name="add")]
    ok = save(helper.make_graph(add, "add", [tensor("x")], [tensor("y")]), "add.onnx")
    with open(os.path.join(HERE, "truncated.onnx"), "wb") as f:
        f.write(ok.SerializeToString()[:40])
    with open(os.path.join(HERE, "not_a_model.onnx"), "w") as f:
        f.write("func @f(%x: f32[4]) -> (y) {\n  return %x\n}\n")
    save(helper.make_graph(add, "add", [tensor("x")], [tensor("y")]), "opset18.onnx", opset=18)

    det = [helper.make_node("Add", ["x", "x"], ["a"], name="first"),
           helper.make_node("Det", ["a"], ["y"], name="determinant")]
    save(helper.make_graph(det, "det", [tensor("x", shape=("N", 4, 4))],
                           [tensor("y", shape=("N",))]), "unsupported_op.onnx")

    # Three nodes of two operators xstitch does not import, reported at once.
    several = [helper.make_node("Det", ["x"], ["a"], name="/Det"),
               helper.make_node("NonZero", ["x"], ["b"], name="/NonZero"),
               helper.make_node("Det", ["x"], ["c"], name="/Det_1")]
    save(helper.make_graph(several, "several", [tensor("x", shape=("N", 4, 4))],
                           [tensor("a", shape=("N",)),
                            tensor("b", TensorProto.INT64, shape=(3, None)),
                            tensor("c", shape=("N",))]), "several_unsupported_ops.onnx")

    # An Einsum that takes a diagonal (a label twice in one term) does not import.
    diagonal = [helper.make_node("Einsum", ["x"], ["y"], name="/Einsum", equation="nii->ni")]
    save(helper.make_graph(diagonal, "diagonal", [tensor("x", shape=("N", 4, 4))],
                           [tensor("y", shape=("N", 4))]), "einsum_diagonal.onnx")

    # TopK with K an initializer, largest and smallest first: ties and NaNs;
    # the smallest over rows of any length V.
    for name, largest, row in [("topk_largest.onnx", 1, 6), ("topk_smallest.onnx", 0, "V")]:
        k = helper.make_tensor("k", TensorProto.INT64, [1], [3])
        topk = [helper.make_node("TopK", ["x", "k"], ["values", "indices"], name="/TopK",
                                 axis=-1, largest=largest)]
        save(helper.make_graph(topk, "topk", [tensor("x", shape=("N", row))],
                               [tensor("values", shape=("N", 3)),
                                tensor("indices", TensorProto.INT64, shape=("N", 3))], [k]), name)

    foreign = [helper.make_node("FusedGemm", ["x", "x"], ["y"], name="fused",
                                domain="com.microsoft")]
    save(helper.make_graph(foreign, "foreign", [tensor("x")], [tensor("y")]),
         "foreign_domain.onnx", domains=("com.microsoft",))

    save(helper.make_graph(add, "u16", [tensor("x", TensorProto.UINT16)],
                           [tensor("y", TensorProto.UINT16)]), "uint16.onnx")

    reshape = [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")]
    save(helper.make_graph(reshape, "reshape",
                           [tensor("x"), helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
                           [tensor("y", shape=(None, None))]), "data_shape.onnx")

    training = [helper.make_node("Dropout", ["x", "ratio", "mode"], ["y"], name="drop")]
    save(helper.make_graph(training, "dropout", [tensor("x")], [tensor("y")], [
        helper.make_tensor("ratio", TensorProto.FLOAT, [], [0.5]),
        helper.make_tensor("mode", TensorProto.BOOL, [], [True])]), "training_dropout.onnx")

    # Shapes known only at run time become host symbols: a Reshape to a
    # shape input (with 0 and -1), a ConstantOfShape of [B, S / B] (a dim
    # divided by a dim), a Range to floor(1.5 * S) (a dim through floats) and
    # an Expand to a shape input.
    runtime = [
        helper.make_node("Reshape", ["x", "shape"], ["reshaped"], name="reshape"),
        helper.make_node("Shape", ["x"], ["dims"], name="dims"),
        helper.make_node("Gather", ["dims", "zero_s"], ["b"], name="b", axis=0),
        helper.make_node("Gather", ["dims", "one_s"], ["s"], name="s", axis=0),
        helper.make_node("Div", ["s", "b"], ["s_over_b"], name="s_over_b"),
        helper.make_node("Unsqueeze", ["b", "axes0"], ["b1"], name="b1"),
        helper.make_node("Unsqueeze", ["s_over_b", "axes0"], ["q1"], name="q1"),
        helper.make_node("Concat", ["b1", "q1"], ["fill_shape"], name="fill_shape", axis=0),
        helper.make_node("ConstantOfShape", ["fill_shape"], ["filled"], name="fill",
                         value=helper.make_tensor("two", TensorProto.FLOAT, [1], [2.0])),
        helper.make_node("Cast", ["s"], ["s_float"], name="s_float", to=TensorProto.FLOAT),
        helper.make_node("Mul", ["s_float", "one_and_half"], ["scaled"], name="scaled"),
        helper.make_node("Floor", ["scaled"], ["floored"], name="floored"),
        helper.make_node("Cast", ["floored"], ["limit"], name="limit", to=TensorProto.INT64),
        helper.make_node("Range", ["one_s", "limit", "two_s"], ["range"], name="range"),
        helper.make_node("Expand", ["bias", "rows"], ["expanded"], name="expand"),
    ]
    inits = [
        helper.make_tensor("zero_s", i64, [], [0]),
        helper.make_tensor("one_s", i64, [], [1]),
        helper.make_tensor("two_s", i64, [], [2]),
        helper.make_tensor("axes0", i64, [1], [0]),
        helper.make_tensor("one_and_half", TensorProto.FLOAT, [], [1.5]),
        helper.make_tensor("bias", TensorProto.FLOAT, [8], [float(k) for k in range(8)]),
    ]
    unknown = lambda name, elem=TensorProto.FLOAT, rank=2: helper.make_tensor_value_info(
        name, elem, [None] * rank)
    save(helper.make_graph(runtime, "runtime_shapes",
                           [tensor("x", shape=("B", "S", 8)),
                            helper.make_tensor_value_info("shape", i64, [3]),
                            helper.make_tensor_value_info("rows", i64, [2])],
                           [unknown("reshaped", rank=3), unknown("filled"),
                            unknown("range", i64, 1), unknown("expanded")], inits),
         "runtime_shapes.onnx")

    # Slice bounds and Tile repeats known only at run time; Tile repeats
    # computed from a shape.
    bounds = [
        helper.make_node("Slice", ["x", "starts", "ends", "axes01"], ["sliced"], name="slice"),
        helper.make_node("Tile", ["x", "repeats"], ["tiled"], name="tile"),
        helper.make_node("Shape", ["x"], ["dims"], name="dims"),
        helper.make_node("Slice", ["dims", "zero1", "one1"], ["n"], name="n"),
        helper.make_node("Concat", ["n", "one1"], ["by_n"], name="by_n", axis=0),
        helper.make_node("Tile", ["x", "by_n"], ["tiled_by_n"], name="tile_by_n"),
    ]
    inits = [
        helper.make_tensor("axes01", i64, [2], [0, 1]),
        helper.make_tensor("zero1", i64, [1], [0]),
        helper.make_tensor("one1", i64, [1], [1]),
    ]
    vector = lambda name: helper.make_tensor_value_info(name, i64, [2])
    save(helper.make_graph(bounds, "runtime_bounds",
                           [tensor("x", shape=("N", 8)), vector("starts"), vector("ends"),
                            vector("repeats")],
                           [unknown("sliced"), unknown("tiled"), unknown("tiled_by_n")], inits),
         "runtime_bounds.onnx")

    # A shape input whose length is not known fixes no rank.
    save(helper.make_graph(reshape, "reshape",
                           [tensor("x"), helper.make_tensor_value_info("shape", i64, ["K"])],
                           [tensor("y", shape=(None, None))]), "data_shape_length.onnx")

    # A size computed from a size that is itself computed at run time.
    chained = [
        helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape"),
        helper.make_node("Shape", ["y"], ["dims"], name="dims"),
        helper.make_node("Cast", ["dims"], ["dims_float"], name="dims_float",
                         to=TensorProto.FLOAT),
        helper.make_node("Cast", ["dims_float"], ["dims_again"], name="dims_again",
                         to=TensorProto.INT64),
        helper.make_node("ConstantOfShape", ["dims_again"], ["z"], name="fill"),
    ]
    save(helper.make_graph(chained, "chained",
                           [tensor("x"), helper.make_tensor_value_info("shape", i64, [2])],
                           [tensor("z", shape=(None, None))]), "chained_runtime_shape.onnx")


    # K of TopK and k of Trilu taken from a symbolic dim: unsupported, named.
    # torch.sort and torch.argsort export TopK with K the whole line.
    one = helper.make_tensor("one", i64, [], [1])
    axis_one = helper.make_tensor("axis_one", i64, [1], [0])
    whole = [helper.make_node("Shape", ["x"], ["shape"]),
             helper.make_node("Gather", ["shape", "one"], ["n"]),
             helper.make_node("Unsqueeze", ["n", "axis_one"], ["k"]),
             helper.make_node("TopK", ["x", "k"], ["values", "indices"], name="sort")]
    save(helper.make_graph(whole, "sort", [tensor("x", shape=(2, "N"))],
                           [tensor("values", shape=(2, "N")),
                            tensor("indices", i64, shape=(2, "N"))], [one, axis_one]),
         "sort_whole_line.onnx")
    diagonal_k = [helper.make_node("Shape", ["x"], ["shape"]),
                  helper.make_node("Gather", ["shape", "one"], ["k"]),
                  helper.make_node("Trilu", ["x", "k"], ["y"], name="trilu")]
    save(helper.make_graph(diagonal_k, "trilu", [tensor("x", shape=(4, "N"))],
                           [tensor("y", shape=(4, "N"))], [one]), "trilu_symbolic_k.onnx")


if __name__ == "__main__":
    main()
