#!/usr/bin/env python3
"""Exports the PyTorch blocks of the ONNX frontend's tests with dynamic axes.

Needs Debian's python3-torch (apt install python3-torch; not needed to run the
tests, which use the committed .onnx files):
    /usr/bin/python3 tests/frontend/onnx/pytorch/export.py
"""
import os

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
OPSET = 17


class SkipLayerNorm(nn.Module):
    """LayerNorm(x + residual) over the hidden dim, as BERT's add & norm."""

    def __init__(self, hidden=768):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, x, residual):
        return self.norm(x + residual)


class AttentionSoftmax(nn.Module):
    """softmax(scores / sqrt(64) + (1 - mask) * -10000) over the keys."""

    def forward(self, scores, mask):
        return torch.softmax(scores * 0.125 + (1.0 - mask) * -10000.0, dim=-1)


class GeluMlp(nn.Module):
    """Linear -> GELU (erf form) -> Linear: two matrix products, and the
    memory-intensive bias + gelu and bias between them."""

    def __init__(self, hidden=64, inner=256):
        super().__init__()
        self.up = nn.Linear(hidden, inner)
        self.down = nn.Linear(inner, hidden)

    def forward(self, x):
        return self.down(nn.functional.gelu(self.up(x)))


class CausalSoftmax(nn.Module):
    """GPT-2's masked attention probabilities: a causal mask from torch.tril
    (ONNX Trilu) applied by masked_fill, then softmax over the keys."""

    def forward(self, scores):
        s = scores.shape[-1]
        causal = torch.ones(s, s).tril() == 0
        return torch.softmax(scores.masked_fill(causal, float("-inf")), dim=-1)


class MaskedSoftmax(nn.Module):
    """x * mask[..., None] + bias, softmax over the hidden dim, and the sum
    over the sequence. Exported with list-form dynamic axes, every dynamic
    dim gets its own name, so x's batch and sequence meet the mask's in a
    broadcast: at a call the mask may have x's dims or 1 in either."""

    def __init__(self, hidden=64):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(hidden))

    def forward(self, x, mask):
        h = x * mask.unsqueeze(-1) + self.bias
        return torch.softmax(h, dim=-1), h.sum(dim=1)


class ClassifierHead(nn.Module):
    """Linear -> GELU -> Linear -> log_softmax over a batch of feature
    vectors: nn.Linear over a matrix exports as Gemm (transB = 1, the bias as
    C), where over a batch of sequences it exports as MatMul."""

    def __init__(self, hidden=64, inner=48, classes=10):
        super().__init__()
        self.up = nn.Linear(hidden, inner)
        self.out = nn.Linear(inner, classes)

    def forward(self, x):
        return torch.log_softmax(self.out(nn.functional.gelu(self.up(x))), dim=-1)


class SelfAttention(nn.Module):
    """nn.MultiheadAttention as written in user code (sequence-first): the
    exporter writes its projections as Gemm over the flattened tokens."""

    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.attention = nn.MultiheadAttention(hidden, heads)

    def forward(self, x):
        return self.attention(x, x, x, need_weights=False)[0]


class LabelSmoothingLoss(nn.Module):
    """Cross entropy against one-hot labels smoothed by 0.1, as training
    loops write it: F.one_hot exports as OneHot."""

    def __init__(self, classes=10, smoothing=0.1):
        super().__init__()
        self.classes = classes
        self.smoothing = smoothing

    def forward(self, logits, labels):
        target = nn.functional.one_hot(labels, self.classes).to(logits.dtype)
        target = target * (1.0 - self.smoothing) + self.smoothing / self.classes
        return -(target * torch.log_softmax(logits, dim=-1)).sum(-1).mean()


class EinsumAttention(nn.Module):
    """softmax(q k^T / sqrt(d)) v with both products written as torch.einsum:
    exported as Einsum nodes."""

    def forward(self, q, k, v):
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / 8.0
        return torch.einsum("bhqk,bhkd->bhqd", scores.softmax(dim=-1), v)


class SqueezeExcitation(nn.Module):
    """A squeeze-and-excitation block: F.adaptive_avg_pool2d(x, 1) exports
    as GlobalAveragePool, the two nn.Linear over [B, C] as Gemm."""

    def __init__(self, channels=16, reduced=4):
        super().__init__()
        self.reduce = nn.Linear(channels, reduced)
        self.expand = nn.Linear(reduced, channels)

    def forward(self, x):
        w = nn.functional.adaptive_avg_pool2d(x, 1).flatten(1)
        w = torch.sigmoid(self.expand(torch.relu(self.reduce(w))))
        return x * w[:, :, None, None]


class PixelShuffle(nn.Module):
    """F.pixel_shuffle exports as DepthToSpace."""

    def forward(self, x):
        return torch.tanh(nn.functional.pixel_shuffle(x, 2))


class PixelUnshuffle(nn.Module):
    """F.pixel_unshuffle exports as Reshapes to [B, C, H/2, 2, W/2, 2]
    computed from Shape: H and W must be even, which the exporter leaves to
    the run-time check of Reshape's element count."""

    def forward(self, x):
        return nn.functional.pixel_unshuffle(x, 2) * 2.0


class FlipSum(nn.Module):
    """torch.flip over a dynamic axis (bidirectional sums, reversed
    sequences) exports as a Slice with step -1 from the last element."""

    def forward(self, x):
        return x + torch.flip(x, dims=[1])


class NearestResize(nn.Module):
    """nn.Upsample's and F.interpolate's nearest mode exports as Resize with
    constant scales: by 2 (a repeat) and by 1/2 (every second element)."""

    def forward(self, x):
        up = nn.functional.interpolate(x, scale_factor=2.0, mode="nearest")
        down = nn.functional.interpolate(x, scale_factor=0.5, mode="nearest")
        return up + 1.0, down * 2.0


class Interpolations(nn.Module):
    """F.interpolate's other modes: bilinear and bicubic by 2 and bilinear by
    1/2 (half_pixel Resize with constant scales), align_corners=True (source
    coordinates that depend on H and W), and a nearest resize to another
    tensor's size, as feature pyramids add the upsampled coarse map to the
    lateral one."""

    def forward(self, x, lateral):
        bilinear = nn.functional.interpolate(x, scale_factor=2.0, mode="bilinear")
        bicubic = nn.functional.interpolate(x, scale_factor=2.0, mode="bicubic")
        down = nn.functional.interpolate(x, scale_factor=0.5, mode="bilinear")
        corners = nn.functional.interpolate(x, scale_factor=2.0, mode="bilinear",
                                            align_corners=True)
        top_down = lateral + nn.functional.interpolate(x, size=lateral.shape[-2:], mode="nearest")
        return bilinear, bicubic, down, corners, top_down


class MeanPooling(nn.Module):
    """Sentence embeddings as sentence-transformers pools them: the mask
    expanded to x's size (`expand(x.size())`, which the exporter writes as
    Where(Equal(shape, -1), 1, shape) before the Expand), then a masked mean
    over the sequence."""

    def forward(self, x, mask):
        m = mask.unsqueeze(-1).expand(x.size()).float()
        return torch.sum(x * m, 1) / torch.clamp(m.sum(1), min=1e-9)


class Rotary(nn.Module):
    """LLaMA's rotary position embedding, its angles computed from
    torch.arange(S, dtype=float32) (a Range over the dim cast to float) and
    rotate_half's slices and concat."""

    def forward(self, q):
        s, d = q.shape[2], q.shape[3]
        inv_freq = 1.0 / (10000 ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
        angles = torch.outer(torch.arange(s, dtype=torch.float32), inv_freq)
        emb = torch.cat((angles, angles), dim=-1)
        x1, x2 = q[..., : d // 2], q[..., d // 2:]
        return q * emb.cos() + torch.cat((-x2, x1), dim=-1) * emb.sin()


def export(module, args, names, dynamic, path):
    torch.onnx.export(module, args, os.path.join(HERE, path), input_names=names,
                      output_names=["y"], dynamic_axes=dynamic, opset_version=OPSET)


def main():
    torch.manual_seed(0)
    export(SkipLayerNorm().eval(), (torch.randn(2, 5, 768), torch.randn(2, 5, 768)),
           ["x", "residual"],
           {"x": {0: "B", 1: "S"}, "residual": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}},
           "skip_layernorm.onnx")
    export(AttentionSoftmax().eval(), (torch.randn(2, 12, 7, 7), torch.ones(2, 1, 1, 7)),
           ["scores", "mask"],
           {"scores": {0: "B", 2: "S", 3: "S"}, "mask": {0: "B", 3: "S"},
            "y": {0: "B", 2: "S", 3: "S"}},
           "attention_softmax.onnx")
    export(GeluMlp().eval(), (torch.randn(2, 5, 64),), ["x"],
           {"x": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}, "gelu_mlp.onnx")
    export(CausalSoftmax().eval(), (torch.randn(2, 12, 7, 7),), ["scores"],
           {"scores": {0: "B", 2: "S", 3: "S"}, "y": {0: "B", 2: "S", 3: "S"}},
           "causal_softmax.onnx")
    torch.onnx.export(MaskedSoftmax().eval(), (torch.randn(2, 5, 64), torch.ones(2, 5)),
                      os.path.join(HERE, "masked_softmax.onnx"), input_names=["x", "mask"],
                      output_names=["y", "s"], dynamic_axes={"x": [0, 1], "mask": [0, 1]},
                      opset_version=OPSET)
    export(ClassifierHead().eval(), (torch.randn(4, 64),), ["x"], {"x": {0: "B"}, "y": {0: "B"}},
           "classifier_head.onnx")
    export(SelfAttention().eval(), (torch.randn(6, 2, 32),), ["x"],
           {"x": {0: "S", 1: "B"}, "y": {0: "S", 1: "B"}}, "self_attention.onnx")
    export(LabelSmoothingLoss().eval(), (torch.randn(6, 10), torch.randint(0, 10, (6,))),
           ["logits", "labels"], {"logits": {0: "N"}, "labels": {0: "N"}},
           "label_smoothing_loss.onnx")
    qkv = {name: {0: "B", 2: "S"} for name in ("q", "k", "v")}
    export(EinsumAttention().eval(), tuple(torch.randn(2, 4, 7, 64) for _ in range(3)),
           ["q", "k", "v"], dict(qkv, y={0: "B", 2: "S"}), "einsum_attention.onnx")
    image = {"x": {0: "B", 2: "H", 3: "W"}}
    export(SqueezeExcitation().eval(), (torch.randn(2, 16, 5, 6),), ["x"],
           dict(image, y={0: "B", 2: "H", 3: "W"}), "squeeze_excitation.onnx")
    export(PixelShuffle().eval(), (torch.randn(2, 16, 5, 6),), ["x"], image, "pixel_shuffle.onnx")
    export(PixelUnshuffle().eval(), (torch.randn(2, 4, 6, 8),), ["x"], image,
           "pixel_unshuffle.onnx")
    torch.onnx.export(NearestResize().eval(), (torch.randn(2, 3, 6, 8),),
                      os.path.join(HERE, "nearest_resize.onnx"), input_names=["x"],
                      output_names=["up", "down"], dynamic_axes={"x": {0: "B", 2: "H", 3: "W"}},
                      opset_version=OPSET)
    export(FlipSum().eval(), (torch.randn(2, 5, 8),), ["x"], {"x": {0: "B", 1: "S"}},
           "flip_sum.onnx")
    export(MeanPooling().eval(), (torch.randn(2, 5, 64), torch.ones(2, 5, dtype=torch.int64)),
           ["x", "mask"], {"x": {0: "B", 1: "S"}, "mask": {0: "B", 1: "S"}, "y": {0: "B"}},
           "mean_pooling.onnx")
    export(Rotary().eval(), (torch.randn(2, 4, 7, 32),), ["q"],
           {"q": {0: "B", 2: "S"}, "y": {0: "B", 2: "S"}}, "rotary.onnx")
    torch.onnx.export(Interpolations().eval(), (torch.randn(2, 3, 6, 8), torch.randn(2, 3, 11, 13)),
                      os.path.join(HERE, "interpolations.onnx"), input_names=["x", "lateral"],
                      output_names=["bilinear", "bicubic", "down", "corners", "top_down"],
                      dynamic_axes={"x": {0: "B", 2: "H", 3: "W"},
                                    "lateral": {0: "B", 2: "H2", 3: "W2"}},
                      opset_version=OPSET)


if __name__ == "__main__":
    main()
