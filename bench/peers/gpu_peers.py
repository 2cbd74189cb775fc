#!/usr/bin/env python3
"""The workload suite on an NVIDIA GPU, side by side in one process: xstitch
(the Python binding over the C API, device tensors in place, the caller's
stream), PyTorch eager, torch.compile (TorchInductor) and JAX jit (XLA), each
checked against PyTorch in float64 on the same inputs, and timed against the
device-to-device copy floor measured in the same run.

usage: gpu_peers.py [--examples DIR] [--only NAME,...] [--peers LIST]
                    [--seconds S] [--json FILE]

Every system computes the same function as examples/NAME.xs on the same
inputs. A time is the median over rounds of back-to-back calls (host clock,
each round ended by a full synchronization and long enough that the
synchronization is under 1% of it): what a framework sees in steady state,
launch overhead included. Inputs rotate among several copies so that the
data of a round is several times the GPU's L2 cache: no system is timed on
inputs the cache already holds. Matrix products are float32 everywhere
(PyTorch's default; JAX at precision "highest"; xstitch's library steps).
"""

import argparse
import json
import math
import os
import statistics
import sys
import time
import traceback

# JAX takes 75% of the GPU's memory at start unless told not to.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import torch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --- The workloads, written once over a small set of array functions -------

class TorchOps:
    name = "torch"

    @staticmethod
    def mean(x, axis, keep=True):
        return x.mean(dim=axis, keepdim=keep)

    @staticmethod
    def sum(x, axis, keep=False):
        return x.sum(dim=axis, keepdim=keep)

    @staticmethod
    def amax(x, axis):
        return x.amax(dim=axis, keepdim=True)

    rsqrt = staticmethod(torch.rsqrt)
    erf = staticmethod(torch.erf)
    tanh = staticmethod(torch.tanh)
    exp = staticmethod(torch.exp)

    @staticmethod
    def permute(x, perm):
        return x.permute(*perm)

    @staticmethod
    def matmul(a, b):
        return a @ b

    @staticmethod
    def cast(x, dtype):
        return x.to({"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
                     "f64": torch.float64}[dtype])


class JaxOps:
    name = "jax"

    def __init__(self):
        import jax
        import jax.numpy as jnp
        self.jax, self.jnp = jax, jnp
        self.rsqrt = jax.lax.rsqrt
        self.erf = jax.scipy.special.erf
        self.tanh = jnp.tanh
        self.exp = jnp.exp

    def mean(self, x, axis, keep=True):
        return x.mean(axis=axis, keepdims=keep)

    def sum(self, x, axis, keep=False):
        return x.sum(axis=axis, keepdims=keep)

    def amax(self, x, axis):
        return x.max(axis=axis, keepdims=True)

    def permute(self, x, perm):
        return self.jnp.transpose(x, perm)

    def matmul(self, a, b):
        return self.jnp.matmul(a, b, precision=self.jax.lax.Precision.HIGHEST)

    def cast(self, x, dtype):
        jnp = self.jnp
        return x.astype({"f32": jnp.float32, "f16": jnp.float16, "bf16": jnp.bfloat16,
                         "f64": jnp.float64}[dtype])


def layer_norm(F, x, g, b, eps):
    m = F.mean(x, -1)
    c = x - m
    v = F.mean(c * c, -1)
    return c * F.rsqrt(v + eps) * g + b


def softmax(F, x):
    e = F.exp(x - F.amax(x, -1))
    return e / F.sum(e, -1, keep=True)


def gelu_erf(F, x):
    return 0.5 * x * (1.0 + F.erf(x * 0.7071067811865476))


def w_layernorm(F, x, g, b):
    return (layer_norm(F, x, g, b, 1e-5),)


def w_skip_layernorm(F, x, r, bias, g, b):
    return (layer_norm(F, x + bias + r, g, b, 1e-5),)


def w_bias_gelu(F, x, b):
    return (gelu_erf(F, x + b),)


def w_gelu_tanh(F, x):
    return (0.5 * x * (1.0 + F.tanh(0.7978845608028654 * (x + 0.044715 * (x * x * x)))),)


def w_attn_softmax(F, s, mask):
    return (softmax(F, s * 0.125 + (1.0 - mask) * -10000.0),)


def w_rmsnorm(F, x, w):
    return (w * x * F.rsqrt(F.mean(x * x, -1) + 1e-6),)


def w_layernorm_bwd(F, dy, x, g):
    m = F.mean(x, -1)
    xc = x - m
    rstd = F.rsqrt(F.mean(xc * xc, -1) + 1e-5)
    xhat = xc * rstd
    gd = dy * g
    dx = rstd * (gd - F.mean(gd, -1) - xhat * F.mean(gd * xhat, -1))
    return dx, F.sum(dy * xhat, 0), F.sum(dy, 0)


def w_softmax(F, x):
    return (softmax(F, x),)


def w_bias_grad(F, dy):
    return (F.sum(dy, 0),)


def w_heads_transpose(F, x):
    B, S, _ = x.shape
    return (F.permute(x.reshape(B, S, 12, 64), (0, 2, 1, 3)) * 0.125,)


def w_bert_layer(F, x, mask, wq, bq, wk, bk, wv, bv, wo, bo, g1, be1, w1, b1, w2, b2, g2, be2):
    B, S, H = x.shape
    x2 = x.reshape(B * S, H)
    q = F.permute((F.matmul(x2, wq) + bq).reshape(B, S, 12, 64), (0, 2, 1, 3))
    kt = F.permute((F.matmul(x2, wk) + bk).reshape(B, S, 12, 64), (0, 2, 3, 1))
    v = F.permute((F.matmul(x2, wv) + bv).reshape(B, S, 12, 64), (0, 2, 1, 3))
    probs = softmax(F, F.matmul(q, kt) * 0.125 + (1.0 - mask) * -10000.0)
    ctx = F.permute(F.matmul(probs, v), (0, 2, 1, 3)).reshape(B * S, H)
    h1 = layer_norm(F, (F.matmul(ctx, wo) + bo).reshape(B, S, H) + x, g1, be1, 1e-12)
    f = gelu_erf(F, F.matmul(h1.reshape(B * S, H), w1) + b1)
    return (layer_norm(F, (F.matmul(f, w2) + b2).reshape(B, S, H) + h1, g2, be2, 1e-12),)


def w_mixed_layernorm(dtype):
    def fn(F, x, g, b):
        return (F.cast(layer_norm(F, F.cast(x, "f32"), g, b, 1e-5), dtype),)
    return fn


def w_mixed_softmax(dtype):
    def fn(F, x):
        return (F.cast(softmax(F, F.cast(x, "f32")), dtype),)
    return fn


def w_gru_gates(F, xp, hp, h, b):
    # GRU cell gates: projections of the input and the state (matrix
    # products done before), bias, sigmoid gates, candidate, blend.
    H = h.shape[-1]
    gx = xp + b
    r = 1.0 / (1.0 + F.exp(-(gx[:, :H] + hp[:, :H])))
    z = 1.0 / (1.0 + F.exp(-(gx[:, H:2 * H] + hp[:, H:2 * H])))
    n = F.tanh(gx[:, 2 * H:] + r * hp[:, 2 * H:])
    return ((1.0 - z) * n + z * h,)


GRU_GATES_IR = """func @gru_gates(%xp: f32[B, 768], %hp: f32[B, 768], %h: f32[B, 256], %b: f32[768])
    -> (y: f32[B, 256]) {
  %b_b = broadcast %b {dims = [1]} : f32[B, 768]
  %gx = add %xp, %b_b
  %gx_r = slice %gx {start = [0, 0], limit = [B, 256]}
  %gx_z = slice %gx {start = [0, 256], limit = [B, 512]}
  %gx_n = slice %gx {start = [0, 512], limit = [B, 768]}
  %hp_r = slice %hp {start = [0, 0], limit = [B, 256]}
  %hp_z = slice %hp {start = [0, 256], limit = [B, 512]}
  %hp_n = slice %hp {start = [0, 512], limit = [B, 768]}
  %ar = add %gx_r, %hp_r
  %r = sigmoid %ar
  %az = add %gx_z, %hp_z
  %z = sigmoid %az
  %rh = mul %r, %hp_n
  %an = add %gx_n, %rh
  %n = tanh %an
  %one = constant {value = 1.0} : f32[B, 256]
  %zc = sub %one, %z
  %a = mul %zc, %n
  %c = mul %z, %h
  %y = add %a, %c
  return %y
}
"""

# name, the function, inputs as (name, dtype, shape, kind); kind "x" is
# uniform in [-1, 1), "mask" 0 or 1, "w" uniform scaled by 1/sqrt(fan-in).
WORKLOADS = [
    ("layernorm", w_layernorm, [("x", "f32", (4096, 768), "x"), ("gamma", "f32", (768,), "x"),
                                ("beta", "f32", (768,), "x")]),
    ("skip_layernorm", w_skip_layernorm,
     [("x", "f32", (32, 128, 768), "x"), ("residual", "f32", (32, 128, 768), "x"),
      ("bias", "f32", (768,), "x"), ("gamma", "f32", (768,), "x"), ("beta", "f32", (768,), "x")]),
    ("bias_gelu", w_bias_gelu, [("x", "f32", (4096, 3072), "x"), ("b", "f32", (3072,), "x")]),
    ("gelu_tanh", w_gelu_tanh, [("x", "f32", (4096, 3072), "x")]),
    ("attn_softmax", w_attn_softmax,
     [("s", "f32", (8, 12, 128, 128), "x"), ("mask", "f32", (8, 1, 1, 128), "mask")]),
    ("rmsnorm", w_rmsnorm, [("x", "f32", (2048, 4096), "x"), ("w", "f32", (4096,), "x")]),
    ("layernorm_bwd", w_layernorm_bwd,
     [("dy", "f32", (16384, 768), "x"), ("x", "f32", (16384, 768), "x"),
      ("gamma", "f32", (768,), "x")]),
    ("softmax_small_rows", w_softmax, [("x", "f32", (750000, 32), "x")]),
    ("softmax_long_rows", w_softmax, [("x", "f32", (64, 30000), "x")]),
    ("bias_grad", w_bias_grad, [("dy", "f32", (65536, 1024), "x")]),
    ("heads_transpose", w_heads_transpose, [("x", "f32", (32, 128, 768), "x")]),
    ("bert_layer", w_bert_layer,
     [("x", "f32", (32, 128, 768), "x"), ("mask", "f32", (32, 1, 1, 128), "mask")] +
     [(n, "f32", s, "w" if len(s) == 2 else "x") for n, s in [
         ("wq", (768, 768)), ("bq", (768,)), ("wk", (768, 768)), ("bk", (768,)),
         ("wv", (768, 768)), ("bv", (768,)), ("wo", (768, 768)), ("bo", (768,)),
         ("g1", (768,)), ("be1", (768,)), ("w1", (768, 3072)), ("b1", (3072,)),
         ("w2", (3072, 768)), ("b2", (768,)), ("g2", (768,)), ("be2", (768,))]]),
    ("layernorm_f16", w_mixed_layernorm("f16"),
     [("x", "f16", (16384, 768), "x"), ("gamma", "f32", (768,), "x"),
      ("beta", "f32", (768,), "x")]),
    ("layernorm_bf16", w_mixed_layernorm("bf16"),
     [("x", "bf16", (16384, 768), "x"), ("gamma", "f32", (768,), "x"),
      ("beta", "f32", (768,), "x")]),
    ("softmax_f16", w_mixed_softmax("f16"), [("x", "f16", (16384, 1024), "x")]),
    ("softmax_bf16", w_mixed_softmax("bf16"), [("x", "bf16", (16384, 1024), "x")]),
    # The tiny graph of the host-overhead bar: one step of a GRU at B=256.
    ("gru_gates", w_gru_gates,
     [("xp", "f32", (256, 768), "x"), ("hp", "f32", (256, 768), "x"),
      ("h", "f32", (256, 256), "x"), ("b", "f32", (768,), "x")]),
]

TORCH_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
# ||out - ref|| / ||ref|| allowed, by the outputs' element type.
TOLERANCE = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1e-2}


DEVICE = "cuda"


def synchronize():
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def make_inputs(spec, generator):
    tensors = []
    for _, dtype, shape, kind in spec:
        if kind == "mask":
            t = (torch.rand(shape, generator=generator, device=DEVICE) < 0.8).float()
        else:
            t = torch.rand(shape, generator=generator, device=DEVICE, dtype=torch.float32) * 2 - 1
            if kind == "w":
                t = t * (3.0 / shape[0]) ** 0.5
        tensors.append(t.to(TORCH_DTYPES[dtype]).contiguous())
    return tensors


def rel_error(out, ref):
    out = out.double()
    if not torch.isfinite(out).all():
        return math.inf
    return ((out - ref).norm() / ref.norm().clamp_min(1e-300)).item()


def time_calls(call, sets, seconds, jax_sync=False):
    """Median seconds per call over rounds of back-to-back calls."""
    def round_of(n):
        synchronize()
        start = time.perf_counter()
        last = None
        for i in range(n):
            last = call(sets[i % len(sets)])
        if jax_sync:
            for r in last:
                r.block_until_ready()
        synchronize()
        return (time.perf_counter() - start) / n

    round_of(3)  # warm up
    per_call = round_of(5)
    # Rounds of at least 5 ms, at most 2000 calls; enough rounds for the
    # time asked, at least 5.
    n = max(5, min(2000, int(5e-3 / max(per_call, 1e-7))))
    rounds = max(5, min(50, int(seconds / max(per_call * n, 1e-6))))
    return statistics.median(round_of(n) for _ in range(rounds))


def copy_floor_bandwidth(seconds=0.5):
    """Bytes read plus bytes written per second by a 2 GiB device copy."""
    n = 2 << 30 if DEVICE == "cuda" else 256 << 20
    src = torch.empty(n, dtype=torch.uint8, device=DEVICE).random_()
    dst = torch.empty_like(src)
    per_copy = time_calls(lambda _: dst.copy_(src), [None], seconds)
    del src, dst
    return 2 * n / per_copy


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", default=os.path.join(ROOT, "examples"))
    parser.add_argument("--only", default="")
    parser.add_argument("--peers", default="xstitch,torch,inductor,jax")
    parser.add_argument("--seconds", type=float, default=0.3,
                        help="timed seconds per system and workload (default 0.3)")
    parser.add_argument("--json", default=None)
    parser.add_argument("--device", default="cuda", choices=["cuda", "cpu"],
                        help="cpu: a dry run of the script itself, without a GPU")
    args = parser.parse_args()
    global DEVICE
    DEVICE = args.device
    peers = args.peers.split(",")
    only = set(args.only.split(",")) if args.only else None
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False

    xstitch = None
    if "xstitch" in peers:
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import xstitch
        context = xstitch.Context(cache_dir="off")
    F_jax = None
    if "jax" in peers:
        import jax
        F_jax = JaxOps()

    gpu = torch.cuda.get_device_name() if DEVICE == "cuda" else "the CPU"
    print(f"gpu_peers.py on {gpu}, torch {torch.__version__}"
          + (f", jax {jax.__version__}" if F_jax else "") + f", {time.strftime('%Y-%m-%d')}",
          flush=True)
    bandwidth = copy_floor_bandwidth()
    print(f"copy floor: {bandwidth / 1e9:.0f} GB/s (2 GiB device-to-device, read + write)",
          flush=True)
    stream = torch.cuda.current_stream().cuda_stream if DEVICE == "cuda" else None
    generator = torch.Generator(device=DEVICE)
    generator.manual_seed(20261204)
    rows = []
    failures = 0
    json_file = open(args.json, "w") if args.json else None
    for name, fn, spec in WORKLOADS:
        if only and name not in only:
            continue
        row = {"workload": name}
        try:
            inputs = make_inputs(spec, generator)
            in_bytes = sum(t.numel() * t.element_size() for t in inputs)
            with torch.no_grad():
                ref = [r for r in fn(TorchOps, *[t.double() for t in inputs])]
                outs = fn(TorchOps, *inputs)
            out_bytes = sum(t.numel() * t.element_size() for t in outs)
            row["floor_s"] = (in_bytes + out_bytes) / bandwidth
            # Enough input copies that a round's data is over 4x a 60 MB L2.
            copies = max(1, min(16, math.ceil(256e6 / in_bytes)))
            sets = [inputs] + [make_inputs(spec, generator) for _ in range(copies - 1)]
        except Exception:
            traceback.print_exc()
            failures += 1
            continue

        def check(system, results):
            errs = [rel_error(torch.as_tensor(r) if not torch.is_tensor(r) else r, q)
                    for r, q in zip(results, ref)]
            bound = max(TOLERANCE[o.dtype] for o in outs)
            if name == "bert_layer":
                bound = 1e-4  # float32 products summed in other orders
            row[f"{system}_err"] = max(errs)
            return max(errs) <= bound

        systems = []
        if "xstitch" in peers:
            def xs_system():
                path = os.path.join(args.examples, f"{name}.xs")
                source = GRU_GATES_IR if name == "gru_gates" else open(path).read()
                start = time.perf_counter()
                exe = xstitch.compile(source, device=DEVICE, context=context)
                row["xstitch_compile_s"] = time.perf_counter() - start
                return (lambda ins: exe(*ins, stream=stream),
                        lambda r: [torch.from_dlpack(t) for t in r])
            systems.append(("xstitch", xs_system))
        if "torch" in peers:
            systems.append(("torch", lambda: (lambda ins: fn(TorchOps, *ins), list)))
        if "inductor" in peers:
            def inductor_system():
                compiled = torch.compile(lambda *ins: fn(TorchOps, *ins), dynamic=False)
                start = time.perf_counter()
                compiled(*inputs)
                synchronize()
                row["inductor_compile_s"] = time.perf_counter() - start
                return lambda ins: compiled(*ins), list
            systems.append(("inductor", inductor_system))
        if F_jax is not None:
            def jax_system():
                jfn = jax.jit(lambda *ins: fn(F_jax, *ins))

                def to_jax(t):
                    try:
                        return jax.dlpack.from_dlpack(t)
                    except Exception:  # a copy through the host
                        host = t.float().cpu().numpy() if t.dtype == torch.bfloat16 else t.cpu().numpy()
                        return jax.device_put(F_jax.cast(F_jax.jnp.asarray(host), "bf16")
                                              if t.dtype == torch.bfloat16 else host)
                jsets = [[to_jax(t) for t in s] for s in sets]
                start = time.perf_counter()
                jax.block_until_ready(jfn(*jsets[0]))
                row["jax_compile_s"] = time.perf_counter() - start
                def to_torch(a):
                    try:
                        return torch.from_dlpack(a)
                    except Exception:
                        import numpy as np
                        return torch.as_tensor(np.asarray(a.astype("float32")))
                return (lambda ins: jfn(*jsets[ins]), lambda r: [to_torch(a) for a in r])
            systems.append(("jax", jax_system))

        for system, make in systems:
            try:
                call, convert = make()
                with torch.no_grad():
                    if system == "jax":
                        results = convert(call(0))
                        ok = check(system, results)
                        seconds = time_calls(call, list(range(len(sets))), args.seconds,
                                             jax_sync=True)
                    else:
                        results = convert(call(inputs))
                        synchronize()
                        ok = check(system, results)
                        seconds = time_calls(call, sets, args.seconds)
                row[f"{system}_s"] = seconds
                if not ok:
                    failures += 1
                    print(f"{name}: {system} differs from float64 PyTorch: relative error "
                          f"{row[f'{system}_err']:.3g}", flush=True)
            except Exception as error:
                failures += 1
                row[f"{system}_error"] = str(error)[:2000]
                print(f"{name}: {system} failed: {str(error)[:2000]}", flush=True)
        rows.append(row)
        print(json.dumps(row), flush=True)
        if json_file:
            json_file.write(json.dumps(row) + "\n")
            json_file.flush()
        del sets, inputs, outs, ref
        if DEVICE == "cuda":
            torch.cuda.empty_cache()

    print_table(rows, peers, bandwidth)
    return 1 if failures else 0


def print_table(rows, peers, bandwidth):
    others = [p for p in peers if p != "xstitch"]
    print(f"\nmicroseconds per call (median of back-to-back rounds); floor = bytes / "
          f"{bandwidth / 1e9:.0f} GB/s; 'x' columns = peer time / xstitch time")
    header = f"{'workload':20} {'floor':>8} {'xstitch':>9} {'of floor':>8}"
    for p in others:
        header += f" {p:>9} {'x':>6}"
    print(header)
    ratios = {p: [] for p in others}
    for row in rows:
        xs = row.get("xstitch_s")
        line = f"{row['workload']:20} {row.get('floor_s', 0) * 1e6:8.1f} "
        line += f"{xs * 1e6:9.1f} {row['floor_s'] / xs:8.2f}" if xs else f"{'-':>9} {'-':>8}"
        for p in others:
            t = row.get(f"{p}_s")
            if t is None:
                line += f" {'-':>9} {'-':>6}"
                continue
            line += f" {t * 1e6:9.1f}"
            if xs:
                ratios[p].append(t / xs)
                line += f" {t / xs:6.2f}"
            else:
                line += f" {'-':>6}"
        print(line)
    for p in others:
        if ratios[p]:
            geo = math.exp(sum(math.log(r) for r in ratios[p]) / len(ratios[p]))
            print(f"geometric mean of {p} / xstitch over {len(ratios[p])} workloads: {geo:.2f}")


if __name__ == "__main__":
    sys.exit(main())
