"""The C interface of libadams (src/api/adams_api.h) through ctypes.

Finding the library, in order: the environment variable ADAMS_LIBRARY (a
path to libadams.so), a libadams.so* next to this package, the system's
(ctypes.util.find_library("adams")).  The library is loaded on first use,
so that ``import adams`` works without it and the first call says what is
missing.  ctypes releases the GIL during every foreign call.
"""
import ctypes
import ctypes.util
import glob
import os
import threading

API_VERSION = 1  # ADAMS_API_VERSION this package speaks

# Error codes of adams_api.h.
OK = 0
E_INPUT = -1
E_MEMORY = -2
E_THREADS = -3
E_STORE = -4
E_INTERRUPTED = -5
E_STATE = -6

_lock = threading.Lock()
_lib = None

_i32, _i64, _u32 = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint32
_p = ctypes.c_void_p
_s = ctypes.c_char_p
_sz = ctypes.c_size_t
_pi32 = ctypes.POINTER(_i32)

# name: (restype, argtypes)
_SIGNATURES = {
    "adams_api_version": (ctypes.c_int, []),
    "adams_prepare": (ctypes.c_int, [ctypes.POINTER(_p), _s, _i32, _i32, ctypes.c_int,
                                     ctypes.c_double, _s, _s, _sz]),
    "adams_run": (ctypes.c_int, [_p, _s, _sz]),
    "adams_interrupt": (None, [_p]),
    "adams_open_store": (ctypes.c_int, [ctypes.POINTER(_p), _s, _s, _sz]),
    "adams_free": (None, [_p]),
    "adams_region": (None, [_p, ctypes.POINTER(_u32), _pi32, _pi32, _pi32]),
    "adams_module_name": (_s, [_p]),
    "adams_engine": (_s, [_p]),
    "adams_is_done": (ctypes.c_int, [_p]),
    "adams_is_cofiber": (ctypes.c_int, [_p]),
    "adams_ext_dim": (_i64, [_p, _i32, _i32]),
    "adams_filt1_degree": (_i32, [_p, ctypes.c_int]),
    "adams_filt1_name": (None, [_p, ctypes.c_int, _s, _sz]),
    "adams_filt1_product": (ctypes.c_int, [_p, ctypes.c_int, _i32, _i32, _pi32, _i64, _pi32,
                                           _i64, _s, _sz]),
    "adams_sphere_dim": (_i64, [_p, _i32, _i32, _s, _sz]),
    "adams_product": (ctypes.c_int, [_p, _i32, _i32, _pi32, _i64, _i32, _i32, _pi32, _i64,
                                     _pi32, _i64, _s, _sz]),
    "adams_massey": (ctypes.c_int, [_p, _i32, _i32, _pi32, _i64, _i32, _i32, _pi32, _i64,
                                    _i32, _i32, _pi32, _i64, _pi32, _i64, _pi32, _i64,
                                    ctypes.POINTER(_i64), _s, _sz]),
    "adams_svg": (ctypes.c_int, [_p, ctypes.POINTER(_p), ctypes.POINTER(_sz), _s, _sz]),
    "adams_free_buffer": (None, [_p]),
}


def _candidates():
    env = os.environ.get("ADAMS_LIBRARY")
    if env:
        return [env], "ADAMS_LIBRARY=%s" % env
    here = os.path.dirname(os.path.abspath(__file__))
    local = sorted(glob.glob(os.path.join(here, "libadams.so*")), key=len)
    if local:
        return local[:1], local[0]
    found = ctypes.util.find_library("adams")
    return ([found] if found else []), "the system's libadams"


def library():
    """The loaded libadams (ctypes.CDLL), its functions declared."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        from . import LibraryError  # the exception type lives in the package
        paths, where = _candidates()
        if not paths:
            raise LibraryError("libadams not found: set ADAMS_LIBRARY to the path of "
                               "libadams.so, or install adams (cmake --install)")
        try:
            lib = ctypes.CDLL(paths[0])
        except OSError as e:
            raise LibraryError("cannot load libadams from %s: %s" % (where, e)) from None
        for name, (res, args) in _SIGNATURES.items():
            try:
                f = getattr(lib, name)
            except AttributeError:
                raise LibraryError("%s (from %s) has no %s: a libadams without the C "
                                   "interface src/api/adams_api.h" % (paths[0], where,
                                                                     name)) from None
            f.restype = res
            f.argtypes = args
        v = lib.adams_api_version()
        if v != API_VERSION:
            raise LibraryError("%s speaks interface version %d, this package %d"
                               % (paths[0], v, API_VERSION))
        _lib = lib
        return lib
