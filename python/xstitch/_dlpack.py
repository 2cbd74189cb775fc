"""DLPack's structs (DLPack 0.6) and the capsules of the __dlpack__ protocol."""
import ctypes

# DLDeviceType
CPU, CUDA, CUDA_HOST, CUDA_MANAGED = 1, 2, 3, 13
# DLDataTypeCode
INT, UINT, FLOAT, BFLOAT, BOOL = 0, 1, 2, 4, 6


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", DELETER)]

_NAMES = {(FLOAT, 16): "float16", (FLOAT, 32): "float32", (FLOAT, 64): "float64",
          (BFLOAT, 16): "bfloat16", (INT, 8): "int8", (INT, 16): "int16", (INT, 32): "int32",
          (INT, 64): "int64", (UINT, 8): "uint8", (UINT, 16): "uint16", (BOOL, 8): "bool"}
_TYPESTR = {"f2": (FLOAT, 16), "f4": (FLOAT, 32), "f8": (FLOAT, 64), "i1": (INT, 8),
            "i2": (INT, 16), "i4": (INT, 32), "i8": (INT, 64), "u1": (UINT, 8), "b1": (UINT, 8)}


def dtype_name(dtype):
    name = _NAMES.get((dtype.code, dtype.bits), f"code{dtype.code}_{dtype.bits}")
    return name if dtype.lanes == 1 else f"{name}x{dtype.lanes}"


# The capsule protocol: a capsule named "dltensor" holds a DLManagedTensor*;
# a consumer renames it "used_dltensor" and calls the deleter when done; a
# capsule nobody consumed calls it when it goes.
_DLTENSOR = b"dltensor"
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
# The destructor gets the dying capsule as a raw pointer: no reference to it
# may be taken.
_capsule_valid_raw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))
_capsule_pointer_raw = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _delete_unconsumed(capsule):
    if _capsule_valid_raw(capsule, _DLTENSOR):
        managed = ctypes.cast(_capsule_pointer_raw(capsule, _DLTENSOR),
                              ctypes.POINTER(DLManagedTensor))
        if managed.contents.deleter:
            managed.contents.deleter(managed)


def to_capsule(managed):
    """A "dltensor" capsule owning `managed` (a POINTER(DLManagedTensor))."""
    return _capsule_new(ctypes.cast(managed, ctypes.c_void_p), _DLTENSOR,
                        ctypes.cast(_delete_unconsumed, ctypes.c_void_p))


def tensor_in(capsule):
    """The DLTensor a producer's capsule holds (valid while the capsule lives)."""
    # dl_tensor is DLManagedTensor's first member: the capsule's pointer is
    # the DLTensor's address.
    return DLTensor.from_address(_capsule_pointer(capsule, _DLTENSOR))


def tensor_from_array_interface(interface):
    """A DLTensor over memory described by NumPy's __array_interface__ (for
    arrays that refuse __dlpack__, such as read-only ones), and the arrays
    its shape and strides live in."""
    typestr = interface["typestr"]
    if typestr[1:] not in _TYPESTR or typestr[0] not in "<|=":
        raise TypeError(f"xstitch: unsupported array element type {typestr!r}")
    code, bits = _TYPESTR[typestr[1:]]
    shape = interface["shape"]
    itemsize = bits // 8
    shape_array = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    strides_array = None
    if interface.get("strides") is not None:
        strides_array = (ctypes.c_int64 * max(len(shape), 1))(
            *[s // itemsize for s in interface["strides"]])
    tensor = DLTensor()
    tensor.data = interface["data"][0]
    tensor.device = DLDevice(CPU, 0)
    tensor.ndim = len(shape)
    tensor.dtype = DLDataType(code, bits, 1)
    tensor.shape = shape_array
    tensor.strides = strides_array
    tensor.byte_offset = 0
    return tensor, (shape_array, strides_array)
