"""The Python binding: compile text IR and ONNX models exported by PyTorch
with dynamic axes, run them on NumPy arrays and PyTorch tensors without
copies, and match PyTorch's own results.

Run by ctest (tests/python/CMakeLists.txt) with Debian's python3-numpy and
python3-torch; by hand: PYTHONPATH=python /usr/bin/python3 -m unittest discover tests/python
"""
import importlib.util
import os
import tempfile
import unittest
import warnings

import numpy as np
import torch
from torch import nn

import xstitch

SCALED_SUM = """
func @scaled_sum(%x: f32[B, D], %r: f32[B, D], %g: f32[D]) -> (y: f32[B, D], s: f32[B]) {
  %h = add %x, %r
  %g_b = broadcast %g {dims = [1]} : f32[B, D]
  %y = mul %h, %g_b
  %s = reduce_sum %x {dims = [1]}
  return %y, %s
}
"""


# The blocks the ONNX frontend's tests export (tests/frontend/onnx/pytorch).
_EXPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "frontend", "onnx",
                       "pytorch", "export.py")
_spec = importlib.util.spec_from_file_location("pytorch_blocks", _EXPORT)
blocks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(blocks)


# The models of the exported suite (bench/exported), at small sizes.
_SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "exported",
                      "export_models.py")
_suite_spec = importlib.util.spec_from_file_location("exported_suite", _SUITE)
suite = importlib.util.module_from_spec(_suite_spec)
_suite_spec.loader.exec_module(suite)


class RmsNormPow(nn.Module):
    """The exporter's idioms: Pow with a constant exponent, ReduceMean, Sqrt, Div."""

    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(hidden) + 0.5)

    def forward(self, x):
        return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


class PositionEmbedding(nn.Module):
    """A decoder's position ids from its attention mask, as Hugging Face's
    GPT-2 and OPT compute them for left-padded batches (CumSum, Where), then
    the position embeddings they pick (Gather)."""

    def __init__(self, hidden, positions=64):
        super().__init__()
        self.table = nn.Embedding(positions, hidden)

    def forward(self, x, mask):
        ids = mask.long().cumsum(-1) - 1
        ids = ids.masked_fill(mask == 0, 1)
        return x + self.table(ids)


class TopKSampling(nn.Module):
    """A sampling step's chain: temperature, TopK, softmax over the kept
    logits, the most likely of them (ArgMax) mapped back to its token."""

    def forward(self, logits):
        values, indices = torch.topk(logits / 0.7, 8)
        probs = torch.softmax(values, -1)
        return probs, indices.gather(-1, probs.argmax(-1, keepdim=True))


def export(name, module, args, names, dynamic, directory, outputs=("y",)):
    path = os.path.join(directory, name + ".onnx")
    torch.onnx.export(module, args, path, input_names=names, output_names=list(outputs),
                      dynamic_axes=dynamic, opset_version=17)
    return path


class BindingTest(unittest.TestCase):
    def setUp(self):
        self.exe = xstitch.compile(SCALED_SUM)
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((5, 33), dtype=np.float32)
        self.r = rng.standard_normal((5, 33), dtype=np.float32)
        self.g = rng.standard_normal(33, dtype=np.float32)

    def expected(self):
        return (self.x + self.r) * self.g, self.x.sum(axis=1)

    def test_version_and_library(self):
        self.assertRegex(xstitch.version(), r"^\d+\.\d+\.\d+$")
        self.assertTrue(os.path.exists(xstitch.library_path))

    def test_describes_inputs_outputs_and_dims(self):
        self.assertEqual(self.exe.device, "cpu")
        self.assertEqual([i.name for i in self.exe.inputs], ["x", "r", "g"])
        self.assertEqual(self.exe.inputs[0], xstitch.TensorInfo("x", "float32", ("B", "D")))
        self.assertEqual(self.exe.outputs[1], xstitch.TensorInfo("s", "float32", ("B",)))
        self.assertEqual(self.exe.dim_symbols, ["B", "D"])
        self.assertIn("@scaled_sum", repr(self.exe))

    def test_numpy_in_numpy_out_without_copies(self):
        before = xstitch.stats()
        y, s = self.exe(self.x, self.r, self.g)
        after = xstitch.stats()
        self.assertEqual(after["bytes_copied"], before["bytes_copied"])
        self.assertEqual(after["runs"], before["runs"] + 1)
        self.assertEqual(y.shape, (5, 33))
        ey, es = self.expected()
        ny = np.from_dlpack(y)
        np.testing.assert_allclose(ny, ey, rtol=1e-6)
        np.testing.assert_allclose(s.numpy(), es, rtol=1e-5, atol=1e-5)
        # The array views the result's memory.
        self.assertEqual(ny.ctypes.data, y.data_ptr)
        # It outlives the result object.
        del y
        np.testing.assert_allclose(ny, ey, rtol=1e-6)

    def test_torch_in_torch_out_without_copies(self):
        x, r, g = (torch.from_numpy(a) for a in (self.x, self.r, self.g))
        before = xstitch.stats()["bytes_copied"]
        y, _ = self.exe(x, r=r, g=g)
        self.assertEqual(xstitch.stats()["bytes_copied"], before)
        ty = torch.from_dlpack(y)
        self.assertEqual(ty.data_ptr(), y.data_ptr)
        torch.testing.assert_close(ty, (x + r) * g)

    def test_strided_and_read_only_inputs(self):
        xt = np.ascontiguousarray(self.x.T).T  # a transposed view: strides (4, 20)
        self.assertFalse(xt.flags["C_CONTIGUOUS"])
        y, s = self.exe(xt, self.r, self.g)
        np.testing.assert_allclose(y.numpy(), self.expected()[0], rtol=1e-6)
        frozen = self.g.copy()
        frozen.setflags(write=False)
        y, s = self.exe(self.x, self.r, frozen)
        np.testing.assert_allclose(y.numpy(), self.expected()[0], rtol=1e-6)

    def test_errors_say_what_is_wrong(self):
        with self.assertRaises(xstitch.Error) as caught:
            self.exe(self.x, self.r[:, :7], self.g)
        self.assertEqual(caught.exception.code, "INVALID_ARGUMENT")
        self.assertIn("D", str(caught.exception))
        self.assertIn("%r", str(caught.exception))
        with self.assertRaises(xstitch.Error) as caught:
            self.exe(self.x.astype(np.float64), self.r, self.g)
        self.assertIn("float64", str(caught.exception))
        with self.assertRaises(TypeError):
            self.exe([1.0, 2.0], self.r, self.g)
        with self.assertRaises(TypeError):
            self.exe(self.x, self.r)
        with self.assertRaises(TypeError):
            self.exe(self.x, self.r, self.g, w=self.g)
        with self.assertRaises(xstitch.Error) as caught:
            xstitch.compile("func @f(%x: f32[N]) -> (y: f32[N]) {\n  %y = nope %x\n  return %y\n}")
        self.assertIn("<text>:2:", str(caught.exception))
        with self.assertRaises(FileNotFoundError):
            xstitch.compile("/nonexistent/model.onnx")
        with self.assertRaises(xstitch.Error):
            xstitch.compile(SCALED_SUM, device="tpu")

    def test_compile_options_reach_the_compiler(self):
        # Each text is new to this process, so the compiles miss the caches.
        stages = []
        exe = xstitch.compile("func @p(%x: f32[N]) -> (y: f32[N]) {\n  %y = exp %x\n"
                              "  return %y\n}", progress=stages.append)
        self.assertEqual(stages[0], "planning")
        self.assertIn("generating code for 1 kernel", stages)
        np.testing.assert_allclose(np.from_dlpack(exe(np.zeros(3, np.float32))[0]), np.ones(3))

        def stop(stage):
            raise KeyboardInterrupt(stage)
        with self.assertRaises(KeyboardInterrupt):
            xstitch.compile("func @p(%x: f32[N]) -> (y: f32[N]) {\n  %y = neg %x\n"
                            "  return %y\n}", progress=stop)
        with self.assertRaises(xstitch.Error) as caught:
            xstitch.compile(SCALED_SUM, amdgpu_shuffles="swizzle")
        self.assertIn("amdgpu_shuffles is 'swizzle'", str(caught.exception))
        exe = xstitch.compile(SCALED_SUM, device="nvptx-sim", sync_launches=True)
        y, s = exe(self.x, self.r, self.g)
        np.testing.assert_allclose(np.from_dlpack(s), self.x.sum(axis=1), rtol=1e-5)

    def test_the_compile_cache_counts(self):
        before = xstitch.stats()
        xstitch.compile(SCALED_SUM)
        after = xstitch.stats()
        self.assertEqual(after["compilations"], before["compilations"])
        self.assertEqual(after["compile_cache_hits"], before["compile_cache_hits"] + 1)
        xstitch.compile(SCALED_SUM, disable_fusion=True)
        self.assertEqual(xstitch.stats()["compilations"], before["compilations"] + 1)


class PyTorchExportTest(unittest.TestCase):
    """Models exported by PyTorch with dynamic axes, run at other shapes on
    torch tensors, against PyTorch's results."""

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.directory = tempfile.TemporaryDirectory()
        d = cls.directory.name
        cls.models = {}
        # Export the very modules that run in PyTorch, so their weights agree.
        for name, module, args, names, dynamic in [
            ("skip_layernorm", blocks.SkipLayerNorm(64).eval(),
             (torch.randn(2, 5, 64), torch.randn(2, 5, 64)), ["x", "residual"],
             {"x": {0: "B", 1: "S"}, "residual": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}),
            ("attention_softmax", blocks.AttentionSoftmax().eval(),
             (torch.randn(2, 4, 7, 7), torch.ones(2, 1, 1, 7)), ["scores", "mask"],
             {"scores": {0: "B", 2: "S", 3: "S"}, "mask": {0: "B", 3: "S"},
              "y": {0: "B", 2: "S", 3: "S"}}),
            ("gelu_mlp", blocks.GeluMlp(32, 128).eval(), (torch.randn(2, 5, 32),), ["x"],
             {"x": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}),
            ("rmsnorm_pow", RmsNormPow(48).eval(), (torch.randn(2, 5, 48),), ["x"],
             {"x": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}),
            # Whole models: a 2-layer BERT encoder (padding mask), a GPT-2 block
            # (causal mask from torch.tril, and from torch.triu), and cross
            # entropy's label pick.
            ("bert", suite.BertEncoder(layers=2, hidden=64, heads=4, inner=128).eval(),
             (torch.randn(2, 5, 64), torch.ones(2, 5)), ["x", "mask"],
             {"x": {0: "B", 1: "S"}, "mask": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}),
            ("gpt2", suite.Gpt2Block(hidden=64, heads=4).eval(), (torch.randn(2, 5, 64),), ["x"],
             {"x": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}),
            ("gpt2_triu", suite.Gpt2Block(hidden=64, heads=4, causal="triu").eval(),
             (torch.randn(2, 5, 64),), ["x"], {"x": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}),
            # Mixed precision: f16 activations, f32 inside (Cast nodes).
            ("amp_layernorm", suite.AmpLayerNorm(64).eval(), (torch.randn(2, 5, 64).half(),),
             ["x"], {"x": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}),
            ("amp_softmax", suite.AmpSoftmax().eval(), (torch.randn(2, 7).half(),), ["x"],
             {"x": {0: "R", 1: "C"}, "y": {0: "R", 1: "C"}}),
            ("position_ids", PositionEmbedding(32).eval(),
             (torch.randn(2, 5, 32), torch.ones(2, 5, dtype=torch.int64)), ["x", "mask"],
             {"x": {0: "B", 1: "S"}, "mask": {0: "B", 1: "S"}, "y": {0: "B", 1: "S"}}),
            # Shapes computed by the exporter: expand(x.size()) and an arange
            # over the sequence cast to float.
            ("mean_pooling", blocks.MeanPooling().eval(),
             (torch.randn(2, 5, 64), torch.ones(2, 5, dtype=torch.int64)), ["x", "mask"],
             {"x": {0: "B", 1: "S"}, "mask": {0: "B", 1: "S"}, "y": {0: "B"}}),
            ("rotary", blocks.Rotary().eval(), (torch.randn(2, 4, 7, 32),), ["q"],
             {"q": {0: "B", 2: "S"}, "y": {0: "B", 2: "S"}}),
            ("cross_entropy", suite.CrossEntropy().eval(),
             (torch.randn(6, 10), torch.randint(0, 10, (6,))), ["logits", "labels"],
             {"logits": {0: "R"}, "labels": {0: "R"}, "y": {0: "R"}}),
        ]:
            cls.models[name] = (module, export(name, module, args, names, dynamic, d))
        sampling = TopKSampling().eval()
        cls.models["topk_sampling"] = (sampling, export(
            "topk_sampling", sampling, (torch.randn(2, 100),), ["logits"],
            {"logits": {0: "B", 1: "V"}, "probs": {0: "B"}, "token": {0: "B"}}, d,
            outputs=("probs", "token")))

        interpolations = blocks.Interpolations().eval()
        cls.models["interpolations"] = (interpolations, export(
            "interpolations", interpolations, (torch.randn(2, 3, 6, 8), torch.randn(2, 3, 11, 13)),
            ["x", "lateral"], {"x": {0: "B", 2: "H", 3: "W"}, "lateral": {0: "B", 2: "H2", 3: "W2"}},
            d, outputs=("bilinear", "bicubic", "down", "corners", "top_down")))

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def check(self, name, inputs, atol=1e-5, rtol=1e-4):
        module, path = self.models[name]
        exe = xstitch.compile(path)
        before = xstitch.stats()["bytes_copied"]
        (y,) = exe(*inputs)
        self.assertEqual(xstitch.stats()["bytes_copied"], before, "inputs were copied")
        with torch.no_grad():
            expected = module(*inputs)
        torch.testing.assert_close(torch.from_dlpack(y), expected, atol=atol, rtol=rtol)
        return exe

    def test_skip_layernorm(self):
        exe = self.check("skip_layernorm", (torch.randn(3, 11, 64), torch.randn(3, 11, 64)))
        self.assertEqual([i.name for i in exe.inputs], ["x", "residual"])
        self.assertEqual(exe.inputs[0].shape, ("B", "S", 64))
        self.check("skip_layernorm", (torch.randn(1, 1, 64), torch.randn(1, 1, 64)))

    def test_attention_softmax(self):
        mask = (torch.rand(2, 1, 1, 13) > 0.3).float()
        self.check("attention_softmax", (torch.randn(2, 4, 13, 13), mask))

    def test_gelu_mlp(self):
        self.check("gelu_mlp", (torch.randn(3, 9, 32),), atol=1e-4)

    def test_rmsnorm_with_pow(self):
        self.check("rmsnorm_pow", (torch.randn(4, 7, 48),))

    def test_bert_encoder(self):
        mask = torch.ones(3, 11)
        mask[1, 7:] = 0  # a padded sequence
        self.check("bert", (torch.randn(3, 11, 64), mask), atol=1e-4)

    def test_gpt2_block_with_causal_mask(self):
        self.check("gpt2", (torch.randn(2, 9, 64),), atol=1e-4)

    def test_decoder_block_with_triu_causal_mask(self):
        self.check("gpt2_triu", (torch.randn(2, 9, 64),), atol=1e-4)
        self.check("gpt2_triu", (torch.randn(3, 1, 64),), atol=1e-4)

    def test_position_ids_from_a_left_padded_mask(self):
        mask = torch.ones(3, 17, dtype=torch.int64)
        mask[1, :6] = 0  # left padding
        mask[2, :16] = 0
        self.check("position_ids", (torch.randn(3, 17, 32), mask))
        self.check("position_ids", (torch.randn(1, 1, 32), torch.ones(1, 1, dtype=torch.int64)))

    def test_mean_pooling_over_a_padded_batch(self):
        mask = torch.ones(3, 13, dtype=torch.int64)
        mask[1, 9:] = 0
        mask[2, 1:] = 0
        self.check("mean_pooling", (torch.randn(3, 13, 64), mask))
        self.check("mean_pooling", (torch.randn(1, 1, 64), torch.ones(1, 1, dtype=torch.int64)))

    def test_rotary_embedding_at_other_lengths(self):
        for shape in [(3, 4, 19, 32), (1, 4, 1, 32), (2, 4, 128, 32)]:
            self.check("rotary", (torch.randn(*shape),), atol=1e-5, rtol=1e-4)

    def test_topk_sampling_chain(self):
        module, path = self.models["topk_sampling"]
        exe = xstitch.compile(path)
        for shape in [(3, 1000), (1, 8), (5, 50257)]:
            logits = torch.randn(*shape)
            probs, token = exe(logits)
            with torch.no_grad():
                expected_probs, expected_token = module(logits)
            torch.testing.assert_close(torch.from_dlpack(probs), expected_probs)
            torch.testing.assert_close(torch.from_dlpack(token), expected_token)

    def test_interpolations_at_other_sizes(self):
        # Whole factors over H and W (taps that repeat), align_corners (taps
        # computed from H and W at run time), and a resize to the lateral
        # map's size, which no factor relates to H and W.
        module, path = self.models["interpolations"]
        exe = xstitch.compile(path)
        for x_shape, lateral_shape in [((2, 3, 7, 9), (2, 3, 13, 17)), ((1, 3, 2, 2), (1, 3, 1, 1)),
                                       ((2, 3, 16, 24), (2, 3, 31, 47))]:
            x, lateral = torch.randn(*x_shape), torch.randn(*lateral_shape)
            with torch.no_grad():
                expected = module(x, lateral)
            for name, got, want in zip(("bilinear", "bicubic", "down", "corners", "top_down"),
                                       exe(x, lateral), expected):
                torch.testing.assert_close(torch.from_dlpack(got), want, atol=1e-5, rtol=1e-4,
                                           msg=lambda m: f"{name} at {x_shape}: {m}")

    def test_cross_entropy_label_pick(self):
        self.check("cross_entropy", (torch.randn(37, 10), torch.randint(0, 10, (37,))))

    def test_mixed_precision_layernorm_and_softmax(self):
        # f16 results: one f16 rounding of f32 values apart at most.
        self.check("amp_layernorm", (torch.randn(3, 11, 64).half(),), atol=4e-3, rtol=1e-3)
        self.check("amp_softmax", (torch.randn(37, 1000).half(),), atol=1e-5, rtol=1e-3)

    def test_inputs_by_name(self):
        module, path = self.models["skip_layernorm"]
        exe = xstitch.compile(path)
        x, r = torch.randn(2, 3, 64), torch.randn(2, 3, 64)
        (y,) = exe(residual=r, x=x)
        with torch.no_grad():
            torch.testing.assert_close(torch.from_dlpack(y), module(x, r), atol=1e-5, rtol=1e-4)


class BroadcastSpeculationTest(unittest.TestCase):
    """A model whose dims meet in broadcasts, exported with list-form dynamic
    axes (every dim its own name): one compile serves calls where the mask
    has x's batch and sequence, 1 in either, or where x's batch is 1."""

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.directory = tempfile.TemporaryDirectory()
        cls.module = blocks.MaskedSoftmax(32).eval()
        cls.path = os.path.join(cls.directory.name, "masked_softmax.onnx")
        # The list form names each axis itself, with a warning saying so.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            torch.onnx.export(cls.module, (torch.randn(2, 5, 32), torch.ones(2, 5)), cls.path,
                              input_names=["x", "mask"], output_names=["y", "s"],
                              dynamic_axes={"x": [0, 1], "mask": [0, 1]}, opset_version=17)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_one_compile_serves_every_relation(self):
        before = xstitch.stats()
        exe = xstitch.compile(self.path)
        compiled = xstitch.stats()
        # One compile for the 9 variants (or a hit, where another test made it).
        self.assertEqual(compiled["compilations"] + compiled["compile_cache_hits"],
                         before["compilations"] + before["compile_cache_hits"] + 1)
        self.assertEqual(exe.variants, 9)
        # The inputs keep their own dims: the mask's are not x's.
        self.assertEqual(exe.inputs[1].shape, ("mask_dynamic_axes_1", "mask_dynamic_axes_2"))
        rng = np.random.default_rng(1)
        for (b, s), (mb, ms) in [((3, 7), (3, 7)), ((3, 7), (1, 7)), ((3, 7), (3, 1)),
                                 ((4, 11), (1, 1)), ((1, 5), (6, 5)), ((1, 1), (1, 1)),
                                 ((2, 13), (2, 13)), ((1, 3), (5, 1))]:
            x = torch.from_numpy(rng.standard_normal((b, s, 32), dtype=np.float32))
            mask = torch.from_numpy((rng.random((mb, ms)) > 0.3).astype(np.float32))
            y, total = exe(x, mask)
            with torch.no_grad():
                want_y, want_s = self.module(x, mask)
            where = f"x {list(x.shape)}, mask {list(mask.shape)}"
            torch.testing.assert_close(torch.from_dlpack(y), want_y, atol=1e-5, rtol=1e-4,
                                       msg=lambda m: f"{where}: {m}")
            torch.testing.assert_close(torch.from_dlpack(total), want_s, atol=1e-4, rtol=1e-4,
                                       msg=lambda m: f"{where}: {m}")
        self.assertEqual(xstitch.stats()["compilations"], compiled["compilations"],
                         "a call compiled")

    def test_dims_that_do_not_broadcast_are_an_error(self):
        exe = xstitch.compile(self.path)
        with self.assertRaises(xstitch.Error) as caught:
            exe(torch.randn(3, 7, 32), torch.ones(2, 7))
        message = str(caught.exception)
        self.assertIn("x_dynamic_axes_1 = 3 and mask_dynamic_axes_1 = 2 meet in a broadcast",
                      message)
        self.assertIn("mask: [2, 7]", message)


if __name__ == "__main__":
    unittest.main()
