"""xstitch: compiles the memory-intensive part of ML graphs into few, large
kernels, from xstitch text IR or ONNX models, for the CPU or NVIDIA GPUs.

    import xstitch
    exe = xstitch.compile("model.onnx", device="cpu")   # or text IR, or bytes
    outs = exe(x, r)                                      # or exe(x=x, r=r)
    y = numpy.from_dlpack(outs[0])                        # no copy

Inputs are any objects with __dlpack__ (NumPy arrays, PyTorch tensors) and
are read where they are; results support __dlpack__. This package is ctypes
over libxstitch.so (the C API, include/xstitch/xstitch.h): it looks for the
library in $XSTITCH_LIBRARY, then in build/lib of the checkout it lives in,
then where the system loader finds libxstitch.so.0.
"""
import ctypes
import os
import threading
from collections import namedtuple

from . import _dlpack
from ._library import Error, check, lib, library_path, new
from ._library import (PROGRESS, BundleOptions, CompileInfo, CompileOptions, ContextOptions,
                       ModuleOptions, RunArgs, Stats, TensorDesc)

__all__ = ["compile", "Context", "Executable", "Tensor", "TensorInfo", "Error", "stats",
           "version", "library_path"]

TensorInfo = namedtuple("TensorInfo", ["name", "dtype", "shape"])
TensorInfo.__doc__ = """An input's or output's name, element type ("float32", ...) and
shape: a tuple of ints for constant dims and strings for symbolic ones ("B", "B*S")."""


def version():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return lib.xs_version().decode()


class Context:
    """Worker threads and the compile caches that executables share. compile()
    uses a default one unless given another. `cache_dir` is the persistent
    compile cache's directory ("off": none; None: $XSTITCH_CACHE_DIR, else
    $XDG_CACHE_HOME/xstitch, else ~/.cache/xstitch), `cache_max_bytes` its
    size bound (0: $XSTITCH_CACHE_MAX_BYTES, else 2 GiB)."""

    def __init__(self, worker_threads=0, compile_cache_capacity=0, cache_dir=None,
                 cache_max_bytes=0):
        options = new(ContextOptions)
        options.worker_threads = worker_threads
        options.compile_cache_capacity = compile_cache_capacity
        options.cache_dir = os.fspath(cache_dir).encode() if cache_dir is not None else None
        options.cache_max_bytes = cache_max_bytes
        handle = ctypes.c_void_p()
        check(lib.xs_context_create(ctypes.byref(options), ctypes.byref(handle)))
        self._handle = handle

    def check_device(self, device):
        """Raises Error saying why `device` cannot be used here, if it cannot."""
        check(lib.xs_context_check_device(self._handle, device.encode()))

    def __del__(self):
        if getattr(self, "_handle", None):
            lib.xs_context_release(self._handle)
            self._handle = None


_default_context = None
_default_context_lock = threading.Lock()


def _context(context):
    global _default_context
    if context is not None:
        return context
    with _default_context_lock:
        if _default_context is None:
            _default_context = Context()
        return _default_context


def _module(model):
    """A module handle from a path, text IR, or bytes (ONNX or text)."""
    handle = ctypes.c_void_p()
    if isinstance(model, (bytes, bytearray, memoryview)):
        data = bytes(model)
        check(lib.xs_module_create_from_bytes(data, len(data), None, ctypes.byref(handle)))
        return handle
    if isinstance(model, os.PathLike) or (isinstance(model, str) and "func " not in model):
        path = os.fspath(model)
        if not os.path.exists(path):
            raise FileNotFoundError(f"xstitch: no model at {path!r}")
        check(lib.xs_module_create_from_file(path.encode(), None, ctypes.byref(handle)))
        return handle
    if isinstance(model, str):
        data = model.encode()
        options = new(ModuleOptions)
        options.source_name = b"<text>"
        check(lib.xs_module_create_from_bytes(data, len(data), ctypes.byref(options),
                                              ctypes.byref(handle)))
        return handle
    raise TypeError("xstitch.compile takes a path, xstitch text IR (str) or model bytes, "
                    f"not {type(model).__name__}")


def compile(model, device="cpu", function=None, disable_fusion=False, keep_denormals=False,
            context=None, specialize=None, sync_launches=False, progress=None,
            amdgpu_shuffles=None):
    """Compiles `model` (a path to .onnx or .xs, text IR as a str, or the bytes of
    either) for `device`: "cpu", "cuda[:N]", "hip[:N]", "nvptx-sim[:sm_XX]" or "auto". A
    model compiled before with the same options comes from the compile cache.
    `specialize` ({"B": 8, ...}) compiles for those dims as constants (the
    static-shape baseline); the executable then runs only at them.
    `sync_launches` waits for each GPU kernel launch, so that a kernel that faults
    is named in the error (for debugging). `progress` is called with each stage of
    a compile that misses the caches ("planning", "generating code for 12
    kernels", ...), on the calling thread. `amdgpu_shuffles` is how AMD GPU
    reductions exchange lanes: "dpp" (the default) or "bpermute"."""
    ctx = _context(context)
    module = _module(model)
    errors = []

    def report(_, stage):
        try:
            progress(stage.decode())
        except BaseException as e:  # raised again after the call: none crosses the C API
            errors.append(e)

    callback = PROGRESS(report) if progress is not None else PROGRESS()
    try:
        options = new(CompileOptions)
        options.device = device.encode()
        options.function = function.encode() if function else None
        options.disable_fusion = int(bool(disable_fusion))
        options.keep_denormals = int(bool(keep_denormals))
        if specialize:
            options.specialize = ",".join(f"{k}={int(v)}" for k, v in specialize.items()).encode()
        options.sync_launches = int(bool(sync_launches))
        options.progress = callback
        options.amdgpu_shuffles = amdgpu_shuffles.encode() if amdgpu_shuffles else None
        handle = ctypes.c_void_p()
        check(lib.xs_executable_compile(ctx._handle, module, ctypes.byref(options),
                                        ctypes.byref(handle)))
    finally:
        lib.xs_module_release(module)
    executable = Executable(handle, ctx)
    if errors:
        raise errors[0]
    return executable


def load_bundle(path, device=None, context=None):
    """Loads an AOT bundle written by xstitch-compile (no compiling) on `device`
    (None: the bundle's, "cpu" for x86 code, "cuda:0" for PTX, "hip:0" for HSA code objects)."""
    ctx = _context(context)
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"xstitch: no bundle at {path!r}")
    options = new(BundleOptions)
    options.device = device.encode() if device else None
    handle = ctypes.c_void_p()
    check(lib.xs_executable_load_bundle(ctx._handle, path.encode(), ctypes.byref(options),
                                        ctypes.byref(handle)))
    return Executable(handle, ctx)


_SOURCES = {0: "compiled", 1: "memory", 2: "disk", 3: "bundle"}


def _describe(handle, describe, index):
    desc = new(TensorDesc)
    check(describe(handle, index, ctypes.byref(desc)))
    shape = tuple(desc.dims[d].size if desc.dims[d].size >= 0 else desc.dims[d].expr.decode()
                  for d in range(desc.ndim))
    return TensorInfo(desc.name.decode(), _dlpack.dtype_name(desc.dtype), shape)


def _dlpack_input(value, name):
    """The DLTensor of an input, and what must stay alive while it is used."""
    if hasattr(value, "__dlpack__"):
        try:
            capsule = value.__dlpack__()
            return _dlpack.tensor_in(capsule), capsule
        except (BufferError, TypeError):
            if not hasattr(value, "__array_interface__"):
                raise
    if hasattr(value, "__array_interface__"):
        tensor, keep = _dlpack.tensor_from_array_interface(value.__array_interface__)
        return tensor, (value, keep)
    raise TypeError(f"xstitch: input {name!r} is a {type(value).__name__}; pass an object "
                    "with __dlpack__ (a NumPy array, a PyTorch tensor)")


class Executable:
    """A function compiled for one device. Call it with its inputs, positionally
    in order or by name; it returns a list of Tensors, one per output. Several
    threads may call one executable at once."""

    def __init__(self, handle, context):
        self._handle = handle
        self._context = context  # keeps the default context alive
        count_in = lib.xs_executable_input_count(handle)
        count_out = lib.xs_executable_output_count(handle)
        self.inputs = [_describe(handle, lib.xs_executable_input_desc, i) for i in range(count_in)]
        self.outputs = [_describe(handle, lib.xs_executable_output_desc, i)
                        for i in range(count_out)]
        self.dim_symbols = [lib.xs_executable_dim_symbol(handle, i).decode()
                            for i in range(lib.xs_executable_dim_symbol_count(handle))]
        self.device = lib.xs_executable_device(handle).decode()
        self.function = lib.xs_executable_function(handle).decode()
        info = new(CompileInfo)
        check(lib.xs_executable_compile_info(handle, ctypes.byref(info)))
        # Where it came from: "compiled", "memory", "disk" (the persistent
        # compile cache) or "bundle"; and how long compiling or loading took.
        self.source = _SOURCES.get(info.source, "compiled")
        self.compile_seconds = info.compile_seconds
        self.load_seconds = info.load_seconds
        self.warning = info.warning.decode() if info.warning else None
        # Programs compiled for the relations of dims that meet in broadcasts
        # (N == M, N == 1, M == 1); a call runs the one its shapes select.
        self.variants = info.variant_count
        self._input_names = [i.name for i in self.inputs]
        self._output_names = [o.name for o in self.outputs]
        self._tensor_array = _dlpack.DLTensor * max(len(self.inputs), 1)
        self._managed_array = ctypes.POINTER(_dlpack.DLManagedTensor) * max(len(self.outputs), 1)
        self._run = lib.xs_executable_run
        self._run_size = ctypes.sizeof(RunArgs)

    def __repr__(self):
        def text(info):
            return f"{info.name}: {info.dtype}[{', '.join(str(d) for d in info.shape)}]"
        inputs = ", ".join(text(i) for i in self.inputs)
        outputs = ", ".join(text(o) for o in self.outputs)
        return f"<xstitch.Executable @{self.function}({inputs}) -> ({outputs}) on {self.device}>"

    def _arguments(self, args, kwargs):
        names = self._input_names
        if not kwargs and len(args) == len(names):
            return args
        if len(args) > len(names):
            raise TypeError(f"xstitch: @{self.function} takes {len(names)} inputs "
                            f"({', '.join(names)}), got {len(args)}")
        values = list(args) + [None] * (len(names) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"xstitch: @{self.function} has no input {key!r} "
                                f"(inputs: {', '.join(names)})")
            index = names.index(key)
            if index < len(args):
                raise TypeError(f"xstitch: input {key!r} given twice")
            values[index] = value
        missing = [n for n, v in zip(names, values) if v is None]
        if missing:
            raise TypeError(f"xstitch: missing inputs: {', '.join(missing)}")
        return values

    def __call__(self, *args, stream=None, **kwargs):
        """Runs on the inputs; returns a list of Tensors. On a GPU, `stream` is the
        CUstream or hipStream_t to queue on (an int, e.g.
        torch.cuda.current_stream().cuda_stream, a hipStream_t in ROCm's PyTorch);
        with a stream and every input on the GPU, the call returns once its work is
        queued: work queued after it on that stream sees the results."""
        # Frameworks call this once per step: the per-call work is the
        # capsules and one call into the library, the rest set up once.
        values = self._arguments(args, kwargs)
        count = len(values)
        tensors = self._tensor_array()
        keep = [None] * count
        for i in range(count):
            tensors[i], keep[i] = _dlpack_input(values[i], self._input_names[i])
        managed = self._managed_array()
        run = RunArgs(self._run_size, tensors, count, None, 0, managed, stream)
        check(self._run(self._handle, ctypes.byref(run)))
        del keep
        names = self._output_names
        return [Tensor(managed[i], names[i]) for i in range(len(names))]

    def __del__(self):
        if getattr(self, "_handle", None):
            lib.xs_executable_release(self._handle)
            self._handle = None


class Tensor:
    """A result: memory xstitch allocated, exchanged through DLPack without a
    copy (numpy.from_dlpack(t), torch.from_dlpack(t))."""

    def __init__(self, managed, name):
        self._managed = managed
        self.name = name

    # Read from the DLTensor when asked: a call's results are often handed
    # on through __dlpack__ without being looked at.
    @property
    def shape(self):
        t = self._managed.contents.dl_tensor
        return tuple(t.shape[d] for d in range(t.ndim))

    @property
    def dtype(self):
        return _dlpack.dtype_name(self._managed.contents.dl_tensor.dtype)

    @property
    def data_ptr(self):
        return self._managed.contents.dl_tensor.data or 0

    def __dlpack__(self, stream=None):
        shared = ctypes.POINTER(_dlpack.DLManagedTensor)()
        check(lib.xs_tensor_share(self._managed, ctypes.byref(shared)))
        return _dlpack.to_capsule(shared)

    def __dlpack_device__(self):
        device = self._managed.contents.dl_tensor.device
        return (device.device_type, device.device_id)

    def numpy(self):
        """The result as a NumPy array sharing its memory."""
        import numpy
        return numpy.from_dlpack(self)

    def __repr__(self):
        return f"<xstitch.Tensor {self.name}: {self.dtype}{list(self.shape)}>"

    def __del__(self):
        managed = getattr(self, "_managed", None)
        if managed:
            managed.contents.deleter(managed)
            self._managed = None


def stats():
    """The process's counters: compilations (compile cache misses),
    compile_cache_hits (in memory), disk_cache_loads (the persistent cache),
    bundle_loads, runs, and bytes_copied (0 while runs read their inputs and
    write their outputs in place)."""
    value = new(Stats)
    check(lib.xs_stats_get(ctypes.byref(value)))
    return {name: getattr(value, name) for name, _ in Stats._fields_ if name != "struct_size"}
