#!/usr/bin/python3
"""Writes the exported suite: every workload of examples/ as PyTorch code,
the way model code is written, exported by PyTorch's ONNX exporter with
dynamic axes; and the whole models (a 12-layer BERT-base encoder, a GPT-2
style decoder block with a causal mask).

usage: export_models.py OUTPUT_DIR [--only NAME[,NAME...]] [--list]

Needs Debian's python3-torch (scripts/setup.sh installs it). Each model is
OUTPUT_DIR/NAME.onnx; OUTPUT_DIR/NAME.json records its inputs' shapes at the
benchmark's size and the values of its dynamic dims, for bench/exported/run.sh.
"""

import argparse
import json
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch import nn

OPSET = 17

# Models the frontend's tests export too (tests/frontend/onnx/pytorch) are
# defined there once.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                                "tests", "frontend", "onnx", "pytorch"))
from export import Rotary  # noqa: E402


class LayerNorm(nn.Module):
    def __init__(self, hidden=768):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, x):
        return self.norm(x)


class SkipLayerNorm(nn.Module):
    def __init__(self, hidden=768):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(hidden) * 0.1)
        self.norm = nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, x, residual):
        return self.norm(x + self.bias + residual)


class BiasGelu(nn.Module):
    def __init__(self, inner=3072):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(inner) * 0.1)

    def forward(self, x):
        return F.gelu(x + self.bias)


class GeluTanh(nn.Module):
    """GPT-2's NewGELUActivation, written as the model code writes it."""

    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class AttnSoftmax(nn.Module):
    def forward(self, scores, mask):
        return torch.softmax(scores / math.sqrt(64) + (1.0 - mask) * -10000.0, dim=-1)


class RmsNorm(nn.Module):
    """T5/LLaMA's RMSNorm as their code writes it."""

    def __init__(self, hidden=4096):
        super().__init__()
        self.weight = nn.Parameter(1.0 + torch.randn(hidden) * 0.1)

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + 1e-6))


class LayerNormBwd(nn.Module):
    """LayerNorm's backward with keepdims statistics, as autograd writes it."""

    def __init__(self, hidden=768):
        super().__init__()
        self.gamma = nn.Parameter(1.0 + torch.randn(hidden) * 0.1)

    def forward(self, dy, x):
        mean = x.mean(-1, keepdim=True)
        xc = x - mean
        rstd = torch.rsqrt(xc.pow(2).mean(-1, keepdim=True) + 1e-5)
        xhat = xc * rstd
        g = dy * self.gamma
        dx = rstd * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))
        dgamma = (dy * xhat).sum(0)
        dbeta = dy.sum(0)
        return dx, dgamma, dbeta


class Softmax(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


class AmpLayerNorm(nn.Module):
    """LayerNorm under autocast: f16 activations, computed in f32."""

    def __init__(self, hidden=768):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, x):
        return self.norm(x.float()).half()


class AmpSoftmax(nn.Module):
    """Softmax under autocast: f16 scores, computed in f32."""

    def forward(self, x):
        return torch.softmax(x.float(), dim=-1).half()


class BiasGrad(nn.Module):
    def forward(self, dy):
        return dy.sum(0)


class HeadsTranspose(nn.Module):
    def forward(self, x):
        b, s, _ = x.shape
        return x.view(b, s, 12, 64).permute(0, 2, 1, 3) * 0.125


class Transpose2d(nn.Module):
    def forward(self, x):
        return x.t().contiguous()


class CrossEntropy(nn.Module):
    """The loss of a classifier head: log-softmax and the label's pick."""

    def forward(self, logits, labels):
        return F.cross_entropy(logits, labels, reduction="none")


class ChannelStats(nn.Module):
    """Mean and variance over the middle axis of [B, L, C] (pooling, BatchNorm
    over a sequence)."""

    def forward(self, x):
        mean = x.mean(1, keepdim=True)
        var = (x - mean).pow(2).mean(1)
        return mean.squeeze(1), var


class TopKSampling(nn.Module):
    """A decoder's sampling step over GPT-2's vocabulary: temperature, then
    the 50 best logits and their token ids."""

    def forward(self, logits):
        return torch.topk(logits / 0.7, 50)


class PositionIds(nn.Module):
    """Position ids from a padding mask, as Hugging Face's decoders make them."""

    def forward(self, attention_mask):
        return torch.cumsum(attention_mask, dim=1) * attention_mask + 1


class GroupNormSilu(nn.Module):
    """A diffusion UNet's resnet block entry: GroupNorm(32) then SiLU."""

    def __init__(self, channels=320):
        super().__init__()
        self.norm = nn.GroupNorm(32, channels, eps=1e-5)

    def forward(self, x):
        return F.silu(self.norm(x))


class LayerNorm2d(nn.Module):
    """ConvNeXt's LayerNorm over the channels of [B, C, H, W] as torchvision
    writes it: permute to channels last, layer_norm, permute back."""

    def __init__(self, channels=96):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(channels))
        self.bias = nn.Parameter(0.1 * torch.randn(channels))

    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-6)
        return x.permute(0, 3, 1, 2)


class ReflectPadConv(nn.Module):
    """An image generator's padding before a 3x3 convolution
    (nn.ReflectionPad2d(1)), scaled and shifted as its normalization leaves
    it."""

    def __init__(self):
        super().__init__()
        self.pad = nn.ReflectionPad2d(1)

    def forward(self, x):
        return self.pad(x) * 0.5 + 0.25


class UpsampleBilinear(nn.Module):
    """A segmentation or diffusion decoder's 2x upsample:
    F.interpolate(scale_factor=2, mode="bilinear"), half-pixel centres (the
    default), a Resize in linear mode with constant scales."""

    def forward(self, x):
        return F.interpolate(x, scale_factor=2.0, mode="bilinear")


class UpsampleNearest(nn.Module):
    """A feature pyramid's or a UNet's 2x upsample: F.interpolate(scale_factor=2)
    (mode "nearest", the default), a Resize in nearest mode."""

    def forward(self, x):
        return F.interpolate(x, scale_factor=2.0)


class BertLayer(nn.Module):
    """One encoder layer as BERT's reference code writes it."""

    def __init__(self, hidden=768, heads=12, inner=3072):
        super().__init__()
        self.heads, self.head = heads, hidden // heads
        self.q, self.k, self.v = (nn.Linear(hidden, hidden) for _ in range(3))
        self.o = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.up, self.down = nn.Linear(hidden, inner), nn.Linear(inner, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

    def split(self, t):
        b, s, _ = t.shape
        return t.view(b, s, self.heads, self.head).permute(0, 2, 1, 3)

    def forward(self, x, mask_bias):
        q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head) + mask_bias
        ctx = torch.matmul(torch.softmax(scores, dim=-1), v)
        b, _, s, _ = ctx.shape
        ctx = ctx.permute(0, 2, 1, 3).contiguous().view(b, s, -1)
        x = self.ln1(x + self.o(ctx))
        return self.ln2(x + self.down(F.gelu(self.up(x))))


class BertEncoder(nn.Module):
    def __init__(self, layers=12, hidden=768, heads=12, inner=3072):
        super().__init__()
        self.layers = nn.ModuleList(BertLayer(hidden, heads, inner) for _ in range(layers))

    def forward(self, x, mask):
        mask_bias = (1.0 - mask[:, None, None, :]) * -10000.0
        for layer in self.layers:
            x = layer(x, mask_bias)
        return x


class Gpt2Block(nn.Module):
    """A GPT-2 decoder block: pre-norm, causal mask by masked_fill, tanh GELU.
    `causal`: the mask as GPT-2's code writes it (`tril() == 0`) or as other
    decoders do (`torch.triu(..., diagonal=1)`: ONNX Trilu with upper=1)."""

    def __init__(self, hidden=768, heads=12, causal="tril"):
        super().__init__()
        self.causal = causal
        self.heads, self.head = heads, hidden // heads
        self.ln1, self.ln2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.qkv, self.proj = nn.Linear(hidden, 3 * hidden), nn.Linear(hidden, hidden)
        self.up, self.down = nn.Linear(hidden, 4 * hidden), nn.Linear(4 * hidden, hidden)
        self.gelu = GeluTanh()

    def forward(self, x):
        b, s, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q, k, v = (t.view(b, s, self.heads, self.head).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head))
        if self.causal == "triu":
            causal = torch.triu(torch.ones(s, s, dtype=torch.bool, device=x.device), diagonal=1)
        else:
            causal = torch.ones(s, s, device=x.device).tril() == 0
        scores = scores.masked_fill(causal, float("-inf"))
        ctx = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).contiguous().view(b, s, c)
        x = x + self.proj(ctx)
        return x + self.down(self.gelu(self.up(self.ln2(x))))



# Each model: the module, its inputs (name -> shape, symbols for the dynamic
# dims), the dims' values at the benchmark's size and a small size for the
# export's example inputs, and the hand-written twin under examples/.
def suite():
    return {
        "layernorm": (LayerNorm(), {"x": ["rows", 768]}, {"rows": 4096}, "layernorm"),
        "skip_layernorm": (SkipLayerNorm(), {"x": ["B", "S", 768], "residual": ["B", "S", 768]},
                           {"B": 32, "S": 128}, "skip_layernorm"),
        "bias_gelu": (BiasGelu(), {"x": ["rows", 3072]}, {"rows": 4096}, "bias_gelu"),
        "gelu_tanh": (GeluTanh(), {"x": ["rows", 3072]}, {"rows": 4096}, "gelu_tanh"),
        "attn_softmax": (AttnSoftmax(), {"scores": ["B", 12, "S", "S"], "mask": ["B", 1, 1, "S"]},
                         {"B": 8, "S": 128}, "attn_softmax"),
        "rmsnorm": (RmsNorm(), {"x": ["tokens", 4096]}, {"tokens": 2048}, "rmsnorm"),
        "layernorm_bwd": (LayerNormBwd(), {"dy": ["rows", 768], "x": ["rows", 768]},
                          {"rows": 16384}, "layernorm_bwd"),
        "softmax_small_rows": (Softmax(), {"x": ["rows", 32]}, {"rows": 750000}, "softmax_small_rows"),
        "softmax_long_rows": (Softmax(), {"x": ["rows", "cols"]}, {"rows": 64, "cols": 30000},
                              "softmax_long_rows"),
        "bias_grad": (BiasGrad(), {"dy": ["rows", 1024]}, {"rows": 65536}, "bias_grad"),
        "layernorm_f16": (AmpLayerNorm(), {"x": ["rows", 768]}, {"rows": 16384}, "layernorm_f16"),
        "softmax_f16": (AmpSoftmax(), {"x": ["rows", 1024]}, {"rows": 16384}, "softmax_f16"),
        "heads_transpose": (HeadsTranspose(), {"x": ["B", "S", 768]}, {"B": 32, "S": 128},
                            "heads_transpose"),
        "transpose_2d": (Transpose2d(), {"x": ["rows", 1024]}, {"rows": 16384}, None),
        "cross_entropy": (CrossEntropy(), {"logits": ["rows", 32000], "labels": ["rows"]},
                          {"rows": 256}, None),
        "channel_stats": (ChannelStats(), {"x": ["B", "L", 256]}, {"B": 32, "L": 512}, None),
        "topk_sampling": (TopKSampling(), {"logits": ["rows", 50257]}, {"rows": 64}, None),
        "position_ids": (PositionIds(), {"attention_mask": ["B", "S"]}, {"B": 512, "S": 4096},
                         None),
        "rotary": (Rotary(), {"q": ["B", 32, "S", 128]}, {"B": 2, "S": 2048}, None),
        "groupnorm_silu": (GroupNormSilu(), {"x": ["B", 320, "H", "W"]},
                           {"B": 8, "H": 64, "W": 64}, None),
        "convnext_norm": (LayerNorm2d(), {"x": ["B", 96, "H", "W"]}, {"B": 32, "H": 56, "W": 56},
                          None),
        "reflect_pad": (ReflectPadConv(), {"x": ["B", 64, "H", "W"]}, {"B": 8, "H": 128, "W": 128},
                        None),
        "upsample_bilinear": (UpsampleBilinear(), {"x": ["B", 64, "H", "W"]},
                              {"B": 8, "H": 128, "W": 128}, None),
        "upsample_nearest": (UpsampleNearest(), {"x": ["B", 64, "H", "W"]},
                              {"B": 8, "H": 128, "W": 128}, None),
        "bert_layer": (BertLayer(), {"x": ["B", "S", 768], "mask_bias": ["B", 1, 1, "S"]},
                       {"B": 32, "S": 128}, "bert_layer"),
        "gpt2_block": (Gpt2Block(), {"x": ["B", "S", 768]}, {"B": 8, "S": 128}, None),
        "bert_base": (BertEncoder(), {"x": ["B", "S", 768], "mask": ["B", "S"]}, {"B": 8, "S": 128},
                      None),
    }


INTEGER_INPUTS = {"labels", "attention_mask"}
# Models whose float inputs are f16 (mixed precision).
HALF_MODELS = {"layernorm_f16", "softmax_f16"}


def example_input(name, shape, half=False):
    small = {"rows": 6, "tokens": 6, "B": 2, "S": 5, "L": 7, "cols": 9, "H": 3, "W": 5}
    dims = [small.get(d, d) if isinstance(d, str) else d for d in shape]
    if name in INTEGER_INPUTS:
        return torch.randint(0, dims[-1] if len(dims) > 1 else 4, dims)
    if name == "mask":
        return torch.ones(*dims)
    return torch.randn(*dims).half() if half else torch.randn(*dims)


def export(name, entry, out_dir):
    module, inputs, sizes, twin = entry
    module.eval()
    args = tuple(example_input(n, s, name in HALF_MODELS) for n, s in inputs.items())
    if name == "cross_entropy":
        args = (args[0], torch.randint(0, args[0].shape[1], (args[0].shape[0],)))
    outputs = module(*args)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    output_names = ["y"] if len(outputs) == 1 else [f"y{i}" for i in range(len(outputs))]
    dynamic = {n: {i: d for i, d in enumerate(s) if isinstance(d, str)} for n, s in inputs.items()}
    path = os.path.join(out_dir, name + ".onnx")
    with torch.no_grad():
        torch.onnx.export(module, args, path, input_names=list(inputs), output_names=output_names,
                          dynamic_axes=dynamic, opset_version=OPSET, do_constant_folding=True)
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump({"name": name, "inputs": inputs, "dims": sizes, "twin": twin,
                   "integer_inputs": sorted(INTEGER_INPUTS & set(inputs)),
                   "half_inputs": sorted(inputs) if name in HALF_MODELS else []}, f, indent=1)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--only", default="")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(0)
    models = suite()
    if args.list:
        print("\n".join(models))
        return
    only = [n for n in args.only.split(",") if n]
    unknown = [n for n in only if n not in models]
    if unknown:
        sys.exit(f"export_models.py: error: unknown model {', '.join(unknown)}; --list names them")
    os.makedirs(args.out_dir, exist_ok=True)
    for name, entry in models.items():
        if not only or name in only:
            print(export(name, entry, args.out_dir))


if __name__ == "__main__":
    main()
