#!/usr/bin/python3
"""Writes ONNX models of the workload suite (examples/*.xs), the same graphs
with the same dynamic dims, for the peers of bench/run-workloads.sh.

usage: make_models.py OUTPUT_DIR

Opset 17 (Debian's python3-onnx): GELU is written out with Erf or Tanh, as
exporters emit it for that opset; LayerNormalization is the opset-17 op.
"""

import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
OPSET = 17


class Graph:
    def __init__(self, name):
        self.name = name
        self.nodes, self.inputs, self.inits = [], [], []
        self.count = 0

    def input(self, name, shape, dtype=F):
        self.inputs.append(helper.make_tensor_value_info(name, dtype, shape))
        return name

    def const(self, value, dtype=np.float32):
        name = f"c{len(self.inits)}"
        self.inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    def op(self, kind, *inputs, **attrs):
        self.count += 1
        out = f"t{self.count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [out], **attrs))
        return out

    def save(self, path, outputs, dtype=F):
        outs = [helper.make_tensor_value_info(name, dtype, None) for name in outputs]
        graph = helper.make_graph(self.nodes, self.name, self.inputs, outs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 8
        # The checker wants every output's shape; ONNX Runtime validates the
        # model when it loads it.
        onnx.save(model, path)


def gelu_erf(g, x):
    inner = g.op("Erf", g.op("Div", x, g.const(math.sqrt(2.0))))
    return g.op("Mul", g.op("Mul", x, g.const(0.5)), g.op("Add", inner, g.const(1.0)))


def layernorm(g, x, gamma, beta, eps):
    return g.op("LayerNormalization", x, gamma, beta, axis=-1, epsilon=eps)


def softmax_last(g, x):
    return g.op("Softmax", x, axis=-1)


def build(name):
    g = Graph(name)
    if name == "layernorm":
        x = g.input("x", ["R", 768])
        y = layernorm(g, x, g.input("gamma", [768]), g.input("beta", [768]), 1e-5)
    elif name == "skip_layernorm":
        x, r = g.input("x", ["B", "S", 768]), g.input("residual", ["B", "S", 768])
        b = g.input("bias", [768])
        s = g.op("Add", g.op("Add", x, b), r)
        y = layernorm(g, s, g.input("gamma", [768]), g.input("beta", [768]), 1e-5)
    elif name == "bias_gelu":
        x, b = g.input("x", ["R", 3072]), g.input("b", [3072])
        y = gelu_erf(g, g.op("Add", x, b))
    elif name == "gelu_tanh":
        x = g.input("x", ["R", 3072])
        cube = g.op("Mul", g.op("Mul", x, x), x)
        inner = g.op("Mul", g.op("Add", x, g.op("Mul", cube, g.const(0.044715))),
                     g.const(math.sqrt(2.0 / math.pi)))
        y = g.op("Mul", g.op("Mul", x, g.const(0.5)),
                 g.op("Add", g.op("Tanh", inner), g.const(1.0)))
    elif name == "attn_softmax":
        s, mask = g.input("s", ["B", 12, "S", "S"]), g.input("mask", ["B", 1, 1, "S"])
        bias = g.op("Mul", g.op("Sub", g.const(1.0), mask), g.const(-10000.0))
        y = softmax_last(g, g.op("Add", g.op("Mul", s, g.const(0.125)), bias))
    elif name == "rmsnorm":
        x, w = g.input("x", ["T", 4096]), g.input("w", [4096])
        ms = g.op("ReduceMean", g.op("Mul", x, x), axes=[-1], keepdims=1)
        inv = g.op("Reciprocal", g.op("Sqrt", g.op("Add", ms, g.const(1e-6))))
        y = g.op("Mul", w, g.op("Mul", x, inv))
    elif name == "layernorm_bwd":
        x, dy = g.input("x", ["R", 768]), g.input("dy", ["R", 768])
        gamma = g.input("gamma", [768])
        mean = g.op("ReduceMean", x, axes=[-1], keepdims=1)
        xc = g.op("Sub", x, mean)
        var = g.op("ReduceMean", g.op("Mul", xc, xc), axes=[-1], keepdims=1)
        rstd = g.op("Reciprocal", g.op("Sqrt", g.op("Add", var, g.const(1e-5))))
        xhat = g.op("Mul", xc, rstd)
        dgamma = g.op("ReduceSum", g.op("Mul", dy, xhat), g.const([0], np.int64), keepdims=0)
        dbeta = g.op("ReduceSum", dy, g.const([0], np.int64), keepdims=0)
        gg = g.op("Mul", dy, gamma)
        mean_g = g.op("ReduceMean", gg, axes=[-1], keepdims=1)
        mean_gx = g.op("ReduceMean", g.op("Mul", gg, xhat), axes=[-1], keepdims=1)
        dx = g.op("Mul", rstd, g.op("Sub", g.op("Sub", gg, mean_g), g.op("Mul", xhat, mean_gx)))
        g.save(os.path.join(OUT, f"{name}.onnx"), [dx, dgamma, dbeta])
        return
    elif name == "softmax_small_rows":
        y = softmax_last(g, g.input("x", ["R", 32]))
    elif name == "softmax_long_rows":
        y = softmax_last(g, g.input("x", ["R", "C"]))
    elif name == "bias_grad":
        y = g.op("ReduceSum", g.input("dy", ["R", 1024]), g.const([0], np.int64), keepdims=0)
    elif name == "heads_transpose":
        x = g.input("x", ["B", "S", 768])
        heads = g.op("Reshape", x, g.const([0, 0, 12, 64], np.int64))
        y = g.op("Mul", g.op("Transpose", heads, perm=[0, 2, 1, 3]), g.const(0.125))
    elif name == "bert_layer":
        y = bert_layer(g)
    elif name in ("layernorm_f16", "softmax_f16"):
        # Mixed precision as autocast exports it: f16 in and out, f32 inside.
        # (bf16 has no peer: onnxruntime-node's tensors have no bfloat16.)
        h = TensorProto.FLOAT16
        x = g.op("Cast", g.input("x", ["R", 768 if name == "layernorm_f16" else 1024], h), to=F)
        if name == "layernorm_f16":
            x = layernorm(g, x, g.input("gamma", [768]), g.input("beta", [768]), 1e-5)
        else:
            x = softmax_last(g, x)
        g.save(os.path.join(OUT, f"{name}.onnx"), [g.op("Cast", x, to=h)], h)
        return
    else:
        raise SystemExit(f"unknown workload {name}")
    g.save(os.path.join(OUT, f"{name}.onnx"), [y])


def bert_layer(g):
    x = g.input("x", ["B", "S", 768])
    mask = g.input("mask", ["B", 1, 1, "S"])
    w = {}
    for n, shape in [("wq", [768, 768]), ("bq", [768]), ("wk", [768, 768]), ("bk", [768]),
                     ("wv", [768, 768]), ("bv", [768]), ("wo", [768, 768]), ("bo", [768]),
                     ("g1", [768]), ("be1", [768]), ("w1", [768, 3072]), ("b1", [3072]),
                     ("w2", [3072, 768]), ("b2", [768]), ("g2", [768]), ("be2", [768])]:
        w[n] = g.input(n, shape)
    heads = g.const([0, 0, 12, 64], np.int64)

    def project(weight, bias, perm):
        p = g.op("Add", g.op("MatMul", x, w[weight]), w[bias])
        return g.op("Transpose", g.op("Reshape", p, heads), perm=perm)

    q = project("wq", "bq", [0, 2, 1, 3])
    kt = project("wk", "bk", [0, 2, 3, 1])
    v = project("wv", "bv", [0, 2, 1, 3])
    scores = g.op("Mul", g.op("MatMul", q, kt), g.const(0.125))
    bias = g.op("Mul", g.op("Sub", g.const(1.0), mask), g.const(-10000.0))
    probs = softmax_last(g, g.op("Add", scores, bias))
    ctx = g.op("Transpose", g.op("MatMul", probs, v), perm=[0, 2, 1, 3])
    ctx = g.op("Reshape", ctx, g.const([0, 0, 768], np.int64))
    o = g.op("Add", g.op("Add", g.op("MatMul", ctx, w["wo"]), w["bo"]), x)
    h1 = layernorm(g, o, w["g1"], w["be1"], 1e-12)
    f = gelu_erf(g, g.op("Add", g.op("MatMul", h1, w["w1"]), w["b1"]))
    f = g.op("Add", g.op("Add", g.op("MatMul", f, w["w2"]), w["b2"]), h1)
    return layernorm(g, f, w["g2"], w["be2"], 1e-12)


WORKLOADS = ["layernorm", "skip_layernorm", "bias_gelu", "gelu_tanh", "attn_softmax", "rmsnorm",
             "layernorm_bwd", "softmax_small_rows", "softmax_long_rows", "bias_grad",
             "heads_transpose", "bert_layer", "layernorm_f16", "softmax_f16"]

if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    OUT = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    for workload in WORKLOADS:
        build(workload)
    print(f"make_models.py: {len(WORKLOADS)} models in {OUT}")
