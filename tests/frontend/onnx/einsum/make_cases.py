#!/usr/bin/env python3
"""Writes ONNX Einsum test cases (ONNX's node-test layout: model.onnx and
test_data_set_0/{input,output}_N.pb) whose expected outputs are numpy.einsum's:
the equations PyTorch users write (attention, bilinear forms, rotary and
per-channel scalings), ellipses that broadcast, implicit outputs, and chains of
three operands.

    /usr/bin/python3 tests/frontend/onnx/einsum/make_cases.py
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = [
    ("attention_scores", "bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("attention_values", "bhqk,bhkd->bhqd", [(2, 3, 4, 6), (2, 3, 6, 5)]),
    ("matmul_implicit", "ij,jk", [(3, 4), (4, 5)]),
    ("matmul_transposed_out", "ij,jk->ki", [(3, 4), (4, 5)]),
    ("outer", "i,j->ij", [(3,), (4,)]),
    ("dot", "i,i->", [(7,), (7,)]),
    ("elementwise", "ij,ij->ij", [(3, 4), (3, 4)]),
    ("rotary_scale", "bld,ld->bld", [(2, 5, 6), (5, 6)]),
    ("ellipsis_matmul", "...ij,...jk->...ik", [(2, 3, 4, 5), (3, 5, 6)]),
    ("ellipsis_middle", "b...d,d->b...", [(2, 3, 4, 5), (5,)]),
    ("sum_transpose", "ijk->kj", [(2, 3, 4)]),
    ("identity", "ijk", [(2, 3, 4)]),
    ("total", "ij->", [(3, 4)]),
    ("bilinear", "bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("batch_broadcast", "bij,bjk->bik", [(1, 3, 4), (5, 4, 2)]),
    ("linear", "abc,cd->abd", [(2, 3, 4), (4, 5)]),
    ("channel_weights", "nchw,c->nhw", [(2, 3, 4, 5), (3,)]),
    ("nt_matmul", "ik,jk->ij", [(3, 4), (5, 4)]),
    ("two_summed", "xyz,zyw->xw", [(2, 3, 4), (4, 3, 5)]),
    ("outer_4d", "ab,cd->abcd", [(2, 3), (4, 5)]),
    ("chain", "ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("triple_outer", "bi,bj,bk->bijk", [(2, 3), (2, 4), (2, 2)]),
    ("inner_3d", "abc,abc->", [(2, 3, 4), (2, 3, 4)]),
    ("ellipsis_broadcast", "...d,...d->...", [(2, 1, 4), (3, 4)]),
    ("heads_broadcast", "bhnd,bhmd->bhnm", [(2, 1, 3, 4), (1, 5, 2, 4)]),
    ("implicit_outer", "ij,kl", [(2, 3), (4, 5)]),
    ("capitals", "Ab,bC->CA", [(2, 3), (3, 4)]),
]


def main():
    rng = np.random.default_rng(0)
    for name, equation, shapes in CASES:
        inputs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        expected = np.array(np.einsum(equation, *inputs), dtype=np.float32, order="C")
        names = [f"x{i}" for i in range(len(inputs))]
        graph = helper.make_graph(
            [helper.make_node("Einsum", names, ["y"], equation=equation)], name,
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in zip(names, shapes)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, expected.shape)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        case = os.path.join(HERE, "node", f"test_einsum_{name}")
        data = os.path.join(case, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        onnx.save(model, os.path.join(case, "model.onnx"))
        for i, x in enumerate(inputs):
            with open(os.path.join(data, f"input_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(x, names[i]).SerializeToString())
        with open(os.path.join(data, "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(expected, "y").SerializeToString())


if __name__ == "__main__":
    main()
