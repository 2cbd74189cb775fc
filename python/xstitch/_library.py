"""Finds and loads libxstitch.so and declares the C API's functions (ctypes)."""
import ctypes
import ctypes.util
import os
from pathlib import Path

from ._dlpack import DLManagedTensor, DLTensor

_REPOSITORY = Path(__file__).resolve().parents[2]


def _candidates():
    """Where the library is looked for, in order."""
    override = os.environ.get("XSTITCH_LIBRARY")
    if override:
        yield Path(override)
        return
    # A checkout built as the README says: build/ beside python/.
    yield _REPOSITORY / "build" / "lib" / "libxstitch.so"
    found = ctypes.util.find_library("xstitch")
    if found:
        yield Path(found)
    yield Path("libxstitch.so.0")  # the loader's own search (LD_LIBRARY_PATH, ld.so.cache)


def _load():
    tried = []
    for path in _candidates():
        if path.is_absolute() and not path.exists():
            tried.append(f"{path} (not there)")
            continue
        try:
            return ctypes.CDLL(str(path)), str(path)
        except OSError as error:
            tried.append(f"{path} ({error})")
    raise ImportError(
        "xstitch: cannot load libxstitch.so; tried " + "; ".join(tried) +
        ". Build it (scripts/build.sh) or set XSTITCH_LIBRARY=/path/to/libxstitch.so")


lib, library_path = _load()

_status = ctypes.c_void_p
_handle = ctypes.c_void_p


class ContextOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("worker_threads", ctypes.c_int32),
                ("compile_cache_capacity", ctypes.c_int32), ("cache_dir", ctypes.c_char_p),
                ("cache_max_bytes", ctypes.c_int64)]


class BundleOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("device", ctypes.c_char_p)]


class CompileInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("compile_seconds", ctypes.c_double),
                ("cache_hit", ctypes.c_int32), ("plan_seconds", ctypes.c_double),
                ("llvm_seconds", ctypes.c_double), ("load_seconds", ctypes.c_double),
                ("kernel_count", ctypes.c_int32), ("source", ctypes.c_int32),
                ("warning", ctypes.c_char_p), ("variant_count", ctypes.c_int32)]


class ModuleOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("format", ctypes.c_int),
                ("source_name", ctypes.c_char_p)]


# xs_compile_options_t's progress callback: (user_data, stage).
PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)


class CompileOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("device", ctypes.c_char_p),
                ("function", ctypes.c_char_p), ("disable_fusion", ctypes.c_int32),
                ("keep_denormals", ctypes.c_int32), ("cpu", ctypes.c_char_p),
                ("cpu_features", ctypes.c_char_p), ("block_elements", ctypes.c_int64),
                ("streaming_store_bytes", ctypes.c_int64), ("specialize", ctypes.c_char_p),
                ("sync_launches", ctypes.c_int32), ("progress", PROGRESS),
                ("progress_user_data", ctypes.c_void_p), ("amdgpu_shuffles", ctypes.c_char_p)]


class Dim(ctypes.Structure):
    _fields_ = [("size", ctypes.c_int64), ("expr", ctypes.c_char_p)]


class TensorDesc(ctypes.Structure):
    from ._dlpack import DLDataType as _DLDataType
    _fields_ = [("struct_size", ctypes.c_size_t), ("name", ctypes.c_char_p),
                ("dtype", _DLDataType), ("ndim", ctypes.c_int32),
                ("dims", ctypes.POINTER(Dim))]


class RunArgs(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("inputs", ctypes.POINTER(DLTensor)),
                ("num_inputs", ctypes.c_size_t), ("outputs", ctypes.POINTER(DLTensor)),
                ("num_outputs", ctypes.c_size_t),
                ("out_managed", ctypes.POINTER(ctypes.POINTER(DLManagedTensor))),
                ("stream", ctypes.c_void_p),
                ("step_timer", ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p,
                                                ctypes.c_double)),
                ("step_timer_data", ctypes.c_void_p)]


class Stats(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("compilations", ctypes.c_uint64),
                ("compile_cache_hits", ctypes.c_uint64), ("runs", ctypes.c_uint64),
                ("bytes_copied", ctypes.c_uint64), ("disk_cache_loads", ctypes.c_uint64),
                ("bundle_loads", ctypes.c_uint64)]


def new(struct_type):
    """A struct of the C API with struct_size set, as the xs_*_init functions do."""
    value = struct_type()
    value.struct_size = ctypes.sizeof(struct_type)
    return value


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


_P = ctypes.POINTER
_declare("xs_version", ctypes.c_char_p)
_declare("xs_status_code", ctypes.c_int, _status)
_declare("xs_status_message", ctypes.c_char_p, _status)
_declare("xs_status_free", None, _status)
_declare("xs_status_code_name", ctypes.c_char_p, ctypes.c_int)
_declare("xs_context_create", _status, _P(ContextOptions), _P(_handle))
_declare("xs_context_release", None, _handle)
_declare("xs_context_check_device", _status, _handle, ctypes.c_char_p)
_declare("xs_module_create_from_bytes", _status, ctypes.c_char_p, ctypes.c_size_t,
         _P(ModuleOptions), _P(_handle))
_declare("xs_module_create_from_file", _status, ctypes.c_char_p, _P(ModuleOptions), _P(_handle))
_declare("xs_module_release", None, _handle)
_declare("xs_executable_compile", _status, _handle, _handle, _P(CompileOptions), _P(_handle))
_declare("xs_executable_load_bundle", _status, _handle, ctypes.c_char_p, _P(BundleOptions),
         _P(_handle))
_declare("xs_executable_compile_info", _status, _handle, _P(CompileInfo))
_declare("xs_executable_release", None, _handle)
_declare("xs_executable_device", ctypes.c_char_p, _handle)
_declare("xs_executable_function", ctypes.c_char_p, _handle)
_declare("xs_executable_input_count", ctypes.c_size_t, _handle)
_declare("xs_executable_output_count", ctypes.c_size_t, _handle)
_declare("xs_executable_input_desc", _status, _handle, ctypes.c_size_t, _P(TensorDesc))
_declare("xs_executable_output_desc", _status, _handle, ctypes.c_size_t, _P(TensorDesc))
_declare("xs_executable_dim_symbol_count", ctypes.c_size_t, _handle)
_declare("xs_executable_dim_symbol", ctypes.c_char_p, _handle, ctypes.c_size_t)
_declare("xs_executable_run", _status, _handle, _P(RunArgs))
_declare("xs_tensor_share", _status, _P(DLManagedTensor), _P(_P(DLManagedTensor)))
_declare("xs_stats_get", _status, _P(Stats))


class Error(RuntimeError):
    """An error xstitch reported: `code` is its status code's name
    ("INVALID_ARGUMENT", ...), the message says what is wrong."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def check(status):
    """Raises the error a status holds (and frees it)."""
    if not status:
        return
    code = lib.xs_status_code_name(lib.xs_status_code(status)).decode()
    message = lib.xs_status_message(status).decode(errors="replace")
    lib.xs_status_free(status)
    raise Error(code, message)
