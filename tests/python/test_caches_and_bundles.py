"""The persistent compile cache and AOT bundles through the Python binding:
processes share compiled programs on disk (one entry however many compile at
once; a damaged entry is recompiled with a warning), and a bundle written by
xstitch-compile from a PyTorch export loads without compiling and matches
PyTorch at every shape.

Run by ctest (tests/python/CMakeLists.txt); XSTITCH_COMPILE names the
xstitch-compile tool.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np
import torch
from torch import nn

import xstitch

GRAPH = """
func @scaled_exp(%x: f32[B, D], %g: f32[D]) -> (y: f32[B, D], s: f32[B]) {
  %e = exp %x
  %g_b = broadcast %g {dims = [1]} : f32[B, D]
  %y = mul %e, %g_b
  %s = reduce_sum %y {dims = [1]}
  return %y, %s
}
"""

# One process: compile GRAPH with the persistent cache in argv[1], check the
# results against NumPy, print where the executable came from and the stats.
CHILD = r"""
import json, sys
import numpy as np
import xstitch
context = xstitch.Context(cache_dir=sys.argv[1])
exe = xstitch.compile(sys.argv[2], context=context)
x = np.random.default_rng(0).standard_normal((5, 7), dtype=np.float32)
g = np.linspace(0.5, 1.5, 7, dtype=np.float32)
y, s = exe(x, g)
expected = np.exp(x) * g
ok = bool(np.allclose(y.numpy(), expected, rtol=1e-5, atol=1e-6) and
          np.allclose(s.numpy(), expected.sum(1), rtol=1e-5, atol=1e-5))
print(json.dumps({"ok": ok, "source": exe.source, "warning": exe.warning,
                  "load_seconds": exe.load_seconds, "stats": xstitch.stats()}))
"""


def run_child(cache_dir):
    out = subprocess.run([sys.executable, "-c", CHILD, cache_dir, GRAPH], check=True,
                         capture_output=True, text=True, env=dict(os.environ)).stdout
    return json.loads(out)


def entries(cache_dir):
    return [n for n in os.listdir(cache_dir) if n.endswith(".xsc")]


class PersistentCacheTest(unittest.TestCase):
    def test_processes_share_one_entry(self):
        with tempfile.TemporaryDirectory() as cache:
            # Eight processes compile the same graph at once.
            children = [subprocess.Popen([sys.executable, "-c", CHILD, cache, GRAPH],
                                         stdout=subprocess.PIPE, text=True)
                        for _ in range(8)]
            reports = []
            for child in children:
                out, _ = child.communicate()
                self.assertEqual(child.returncode, 0)
                reports.append(json.loads(out))
            self.assertTrue(all(r["ok"] for r in reports), reports)
            self.assertEqual(len(entries(cache)), 1, os.listdir(cache))
            self.assertEqual(sorted(os.listdir(cache)), entries(cache), "no temporary files left")
            # A later process loads it: nothing compiled.
            later = run_child(cache)
            self.assertTrue(later["ok"])
            self.assertEqual(later["source"], "disk")
            self.assertEqual(later["stats"]["compilations"], 0)
            self.assertEqual(later["stats"]["disk_cache_loads"], 1)

    def test_a_damaged_entry_is_recompiled_with_a_warning(self):
        with tempfile.TemporaryDirectory() as cache:
            self.assertEqual(run_child(cache)["source"], "compiled")
            [entry] = entries(cache)
            path = os.path.join(cache, entry)
            with open(path, "rb") as f:
                whole = f.read()
            for damaged in (b"garbage", whole[: len(whole) // 2],
                            whole[:-10] + bytes(10)):
                with open(path, "wb") as f:
                    f.write(damaged)
                report = run_child(cache)
                self.assertTrue(report["ok"])
                self.assertEqual(report["source"], "compiled")
                self.assertIn(path, report["warning"])
            self.assertEqual(run_child(cache)["source"], "disk")

    def test_off_writes_nothing(self):
        with tempfile.TemporaryDirectory() as cache:
            context = xstitch.Context(cache_dir="off")
            exe = xstitch.compile(GRAPH.replace("scaled_exp", "scaled_exp_off"), context=context)
            self.assertIn(exe.source, ("compiled", "memory"))
            self.assertEqual(os.listdir(cache), [])


class GatedRms(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(hidden) + 0.5)

    def forward(self, x, gate):
        y = x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight
        return y * torch.sigmoid(gate)


class AttentionBlock(nn.Module):
    """Scores, mask, softmax, a residual LayerNorm: the movement and
    reductions whose sizes follow batch and sequence length."""

    def __init__(self, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x, mask_bias):
        scores = x @ x.transpose(1, 2) / 8.0 + mask_bias
        return self.norm(x + torch.softmax(scores, dim=-1) @ x)


class MaskedScale(nn.Module):
    """x * mask[..., None], softmax over the hidden dim: exported with
    list-form dynamic axes, the mask's dims are its own and broadcast
    against x's (broadcast speculation: 9 variants)."""

    def forward(self, x, mask):
        return torch.softmax(x * mask.unsqueeze(-1), dim=-1)


def export_masked_scale(directory):
    path = os.path.join(directory, "masked_scale.onnx")
    # The list form names each axis itself, with a warning saying so.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        torch.onnx.export(MaskedScale(), (torch.randn(2, 5, 16), torch.ones(2, 5)), path,
                          input_names=["x", "mask"], output_names=["y"], opset_version=17,
                          dynamic_axes={"x": [0, 1], "mask": [0, 1]})
    return path


# (x's batch and sequence, the mask's): equal, the mask's batch or sequence
# or both 1, x's batch 1.
MASK_SHAPES = [((3, 7), (3, 7)), ((3, 7), (1, 7)), ((3, 7), (3, 1)), ((4, 2), (1, 1)),
               ((1, 5), (6, 5))]


def check_masked_scale(test, exe):
    rng = np.random.default_rng(3)
    for (b, s), (mb, ms) in MASK_SHAPES:
        x = rng.standard_normal((b, s, 16), dtype=np.float32)
        mask = (rng.random((mb, ms)) > 0.5).astype(np.float32)
        [y] = exe(x, mask)
        with torch.no_grad():
            expected = MaskedScale()(torch.from_numpy(x), torch.from_numpy(mask)).numpy()
        np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-6,
                                   err_msg=f"x {x.shape}, mask {mask.shape}")


class SpeculatedCacheTest(unittest.TestCase):
    def test_the_variants_come_back_from_disk(self):
        with tempfile.TemporaryDirectory() as directory:
            path = export_masked_scale(directory)
            cache = os.path.join(directory, "cache")
            first = xstitch.compile(path, context=xstitch.Context(cache_dir=cache))
            second = xstitch.compile(path, context=xstitch.Context(cache_dir=cache))
            self.assertEqual(first.source, "compiled")
            self.assertEqual(second.source, "disk")
            self.assertEqual((first.variants, second.variants), (9, 9))
            check_masked_scale(self, second)


class OneCompileTest(unittest.TestCase):
    def test_a_thousand_shapes_one_compile(self):
        """One executable of a PyTorch export with dynamic axes runs at 1,000
        distinct (batch, sequence) shapes, 1 and primes among them, every
        result checked, and nothing is compiled after the first."""
        torch.manual_seed(0)
        model = AttentionBlock(32).eval()
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "attention.onnx")
            torch.onnx.export(model, (torch.randn(2, 5, 32), torch.zeros(2, 5, 5)), path,
                              input_names=["x", "mask_bias"], output_names=["y"],
                              opset_version=17,
                              dynamic_axes={"x": {0: "batch", 1: "seq"},
                                            "mask_bias": {0: "batch", 1: "seq", 2: "seq"}})
            context = xstitch.Context(cache_dir="off")
            exe = xstitch.compile(path, context=context)
            compiled = xstitch.stats()["compilations"]
            rng = np.random.default_rng(7)
            primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61]
            shapes = {(1, 1), (1, 61), (61, 1)} | {(b, s) for b in (1, 2, 3) for s in primes}
            while len(shapes) < 1000:
                shapes.add((int(rng.integers(1, 24)), int(rng.integers(1, 72))))
            for batch, seq in sorted(shapes):
                x = rng.standard_normal((batch, seq, 32), dtype=np.float32)
                mask = np.where(rng.random((batch, seq, seq)) < 0.2, -1e4, 0).astype(np.float32)
                [y] = exe(x, mask)
                with torch.no_grad():
                    expected = model(torch.from_numpy(x), torch.from_numpy(mask)).numpy()
                np.testing.assert_allclose(y.numpy(), expected, rtol=1e-4, atol=1e-4,
                                           err_msg=f"batch {batch}, seq {seq}")
            self.assertEqual(len(shapes), 1000)
            self.assertEqual(xstitch.stats()["compilations"], compiled,
                             "a new shape compiled something")


@unittest.skipUnless(os.environ.get("XSTITCH_COMPILE"), "XSTITCH_COMPILE names no xstitch-compile")
class BundleTest(unittest.TestCase):
    def test_an_exported_model_as_a_bundle(self):
        torch.manual_seed(0)
        model = GatedRms(64).eval()
        with tempfile.TemporaryDirectory() as directory:
            onnx_path = os.path.join(directory, "gated_rms.onnx")
            x, gate = torch.randn(2, 3, 64), torch.randn(2, 3, 64)
            torch.onnx.export(model, (x, gate), onnx_path, input_names=["x", "gate"],
                              output_names=["y"], opset_version=17,
                              dynamic_axes={"x": {0: "batch", 1: "seq"},
                                            "gate": {0: "batch", 1: "seq"}})
            bundle = os.path.join(directory, "gated_rms.xsb")
            subprocess.run([os.environ["XSTITCH_COMPILE"], onnx_path, "-o", bundle], check=True,
                           capture_output=True)
            before = xstitch.stats()
            exe = xstitch.load_bundle(bundle)
            self.assertEqual(exe.source, "bundle")
            self.assertEqual([i.name for i in exe.inputs], ["x", "gate"])
            self.assertEqual(xstitch.stats()["compilations"], before["compilations"])
            self.assertEqual(xstitch.stats()["bundle_loads"], before["bundle_loads"] + 1)
            for batch, seq in ((1, 1), (2, 7), (3, 128)):
                x, gate = torch.randn(batch, seq, 64), torch.randn(batch, seq, 64)
                [y] = exe(x, gate)
                with torch.no_grad():
                    expected = model(x, gate).numpy()
                np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5)

    def test_a_speculated_model_as_a_bundle(self):
        with tempfile.TemporaryDirectory() as directory:
            path = export_masked_scale(directory)
            bundle = os.path.join(directory, "masked_scale.xsb")
            subprocess.run([os.environ["XSTITCH_COMPILE"], path, "-o", bundle], check=True,
                           capture_output=True)
            exe = xstitch.load_bundle(bundle)
            self.assertEqual(exe.variants, 9)
            self.assertEqual(exe.inputs[1].shape, ("mask_dynamic_axes_1", "mask_dynamic_axes_2"))
            check_masked_scale(self, exe)
            with self.assertRaises(xstitch.Error) as caught:
                exe(np.ones((3, 7, 16), np.float32), np.ones((2, 7), np.float32))
            self.assertIn("meet in a broadcast", str(caught.exception))

    def test_not_a_bundle(self):
        with tempfile.NamedTemporaryFile(suffix=".xsb") as f:
            f.write(b"func @f() -> () {}")
            f.flush()
            with self.assertRaises(xstitch.Error) as caught:
                xstitch.load_bundle(f.name)
            self.assertIn("not an xstitch program file", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
