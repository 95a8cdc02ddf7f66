"""adams: Ext over the Steenrod algebra (Adams E2 pages) from Python.

    >>> import adams
    >>> r = adams.resolve("S_2", stem=40)
    >>> r.ext(15, 1)          # h_4
    1

A thin layer over libadams's C interface (src/api/adams_api.h) through
ctypes: no compiler is needed.  Modules are named as on the command line
("S_2", "C2", "ko", "S_3", a path to a JSON file, either with a shift
"NAME[k]").  Classes are tuples (n, s, i) -- the basis class x_(n, s, i) --
or (n, s, [v0, v1, ...]) -- a vector of coefficients 0..p-1 over that basis.
Results are plain ints, tuples and lists.  Errors raise adams.Error
subclasses carrying the library's one-line message.  Long computations
release the GIL, and Ctrl-C (KeyboardInterrupt) stops a resolution cleanly.
docs/python.md has a notebook-style tour.
"""
import collections
import ctypes
import os
import signal
import threading

from . import _native

__all__ = ["resolve", "open", "Resolution", "Massey", "Error", "InputError",
           "MemoryLimitError", "ThreadError", "StoreError", "StateError", "LibraryError"]
__version__ = "0.1.0"


class Error(Exception):
    """Every error of adams.  str(e) is the library's one-line message."""


class InputError(Error, ValueError):
    """Bad input: unknown module, malformed file, bad region or class."""


class MemoryLimitError(Error, MemoryError):
    """The region does not fit in the memory allowed (refused before computing)."""


class ThreadError(Error):
    """The threads asked for could not be started."""


class StoreError(Error):
    """A store could not be opened, read or written, or holds another module."""


class StateError(Error):
    """The resolution is not in the state the call needs (e.g. closed)."""


class LibraryError(Error, ImportError):
    """libadams could not be found or loaded."""


_ERRORS = {
    _native.E_INPUT: InputError,
    _native.E_MEMORY: MemoryLimitError,
    _native.E_THREADS: ThreadError,
    _native.E_STORE: StoreError,
    _native.E_STATE: StateError,
}

Massey = collections.namedtuple("Massey", "stem s value indeterminacy")
Massey.__doc__ = """<a, b, c>: a representative `value` (a vector) at (stem, s) and a
basis of the indeterminacy (a list of vectors, [] when zero)."""


def _err():
    return ctypes.create_string_buffer(1024)


def _raise(rc, err):
    raise _ERRORS.get(rc, Error)(err.value.decode("utf-8", "replace"))


def _path(p):
    """A module name or a path (str, bytes or os.PathLike) as bytes."""
    try:
        return os.fsencode(os.fspath(p))
    except TypeError:
        raise InputError("expected a module name or a path, not %r" % (p,)) from None


def _int(x, what):
    """x as an int that fits int32_t (ctypes would wrap a larger one
    silently): InputError otherwise."""
    if isinstance(x, bool) or not isinstance(x, int):
        try:
            x = x.__index__()  # numpy integers and the like; never floats
        except (AttributeError, TypeError):
            raise InputError("%s: expected an integer, not %r" % (what, x)) from None
    if not -2**31 <= x < 2**31:
        raise InputError("%s: %d is out of range" % (what, x))
    return x


def _vec(values):
    try:
        values = [_int(v, "a coefficient") for v in values]
    except TypeError:
        raise InputError("a class vector is a list of integers, not %r" % (values,)) from None
    return (ctypes.c_int32 * max(len(values), 1))(*values), len(values)


def _interruptible(lib, h, err):
    """adams_run(h) in a worker thread while the main thread waits; a SIGINT
    (Ctrl-C) meanwhile calls adams_interrupt (the steps in flight finish, a
    store keeps them) and KeyboardInterrupt is raised once the run has
    stopped.  Returns the run's code; whatever it raises, no run is left
    going (h may be freed)."""
    box = {}
    done = threading.Event()

    def work():
        try:
            box["rc"] = lib.adams_run(h, err, len(err))
        finally:
            done.set()

    if threading.current_thread() is not threading.main_thread():
        work()  # signals reach only the main thread: nothing to catch here
        return box["rc"]
    # The SIGINT handler only asks the run to stop: no KeyboardInterrupt can
    # cut the bookkeeping below short (nor Thread.join, which an exception
    # inside it can leave marking a running thread stopped, CPython
    # gh-90882); the main thread keeps running bytecode so the handler runs.
    caught = []

    def on_sigint(signum, frame):
        caught.append(signum)
        lib.adams_interrupt(h)

    # A handler installed outside Python (getsignal None) cannot be put back:
    # then it is left alone, and the run is waited for as it is.
    python_handler = signal.getsignal(signal.SIGINT) is not None
    old = signal.signal(signal.SIGINT, on_sigint) if python_handler else None
    try:
        threading.Thread(target=work, name="adams-run", daemon=True).start()
        while not done.wait(0.05):
            pass
    finally:
        if python_handler:
            signal.signal(signal.SIGINT, old)
    if caught:
        raise KeyboardInterrupt(err.value.decode("utf-8", "replace") or "interrupted")
    return box["rc"]


def resolve(module, stem, max_s=None, threads=1, save=None, max_memory=None):
    """Resolves `module` through `stem` and filtration `max_s` (None: the
    program's default, (stem - bottom)/(2p - 2) + 3 + span) on `threads` threads.
    save: a store path (adams resolve --save): created, or resumed and
    extended.  max_memory: bytes the run may use (None: what is available;
    a region that cannot fit is refused up front, MemoryLimitError).
    Ctrl-C stops it (KeyboardInterrupt; a store keeps what finished)."""
    if max_memory is not None and not max_memory > 0:
        raise InputError("max_memory: %r bytes (give a positive number, or None for the "
                         "memory available)" % (max_memory,))
    lib = _native.library()
    err = _err()
    h = ctypes.c_void_p()
    try:
        rc = lib.adams_prepare(ctypes.byref(h), _path(module), _int(stem, "stem"),
                               -1 if max_s is None else _int(max_s, "max_s"),
                               _int(threads, "threads"),
                               float(max_memory or 0), None if save is None else _path(save),
                               err, len(err))
        if rc:
            _raise(rc, err)
        rc = _interruptible(lib, h, err)
        if rc == _native.E_INTERRUPTED:  # adams_interrupt from elsewhere
            raise KeyboardInterrupt(err.value.decode("utf-8", "replace"))
        if rc:
            _raise(rc, err)
    except BaseException:
        if h.value:  # the worker is done (_interruptible): free what prepare made
            lib.adams_free(h)
        raise
    return Resolution(lib, h)


def open(path):  # noqa: A001 -- adams.open, as the issue names it
    """The resolution kept in the store at `path` (its completed region),
    read, not computed."""
    lib = _native.library()
    err = _err()
    h = ctypes.c_void_p()
    rc = lib.adams_open_store(ctypes.byref(h), _path(path), err, len(err))
    if rc:
        _raise(rc, err)
    return Resolution(lib, h)


class Resolution:
    """A computed resolution: its region, Ext, products, chart.  Made by
    adams.resolve or adams.open; close() (or `with`) frees it at once."""

    def __init__(self, lib, handle):
        self._lib = lib
        self._h = handle
        self._lock = threading.RLock()  # one call at a time per handle (adams_api.h)
        p, lo, hi, top = ctypes.c_uint32(), ctypes.c_int32(), ctypes.c_int32(), ctypes.c_int32()
        lib.adams_region(handle, p, lo, hi, top)
        #: the prime, the stems min_stem..stem and the filtrations 0..max_s computed
        self.prime, self.min_stem, self.stem, self.max_s = p.value, lo.value, hi.value, top.value
        self.module = lib.adams_module_name(handle).decode("utf-8", "replace")
        self.engine = lib.adams_engine(handle).decode()
        #: the cofiber of a class (a module file with "cofiber"): Ext only
        self.cofiber = bool(lib.adams_is_cofiber(handle))

    # ---- life -------------------------------------------------------------
    def close(self):
        with self._lock:
            if self._h:
                self._lib.adams_free(self._h)
                self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<adams.Resolution %s p=%d stems %d..%d s<=%d>" % (
            self.module, self.prime, self.min_stem, self.stem, self.max_s)

    def _c(self, name, *args):
        """The C function `name` on this handle and args, one thread at a time."""
        with self._lock:
            if not self._h:
                raise StateError("this resolution is closed")
            return getattr(self._lib, name)(self._h, *args)

    # ---- Ext ---------------------------------------------------------------
    def ext(self, n, s):
        """dim Ext^{s, s+n} (an int); InputError outside the region."""
        d = self._c("adams_ext_dim", _int(n, "n"), _int(s, "s"))
        if d < 0:
            raise InputError("(%d, %d) is outside the computed region of %s (stems %d..%d, "
                             "filtrations 0..%d)" % (n, s, self.module, self.min_stem,
                                                     self.stem, self.max_s))
        return int(d)

    def classes(self):
        """Every class x_(n, s, i) of the region as (n, s, i), by stem, then s."""
        out = []
        for n in range(self.min_stem, self.stem + 1):
            for s in range(self.max_s + 1):
                out.extend((n, s, i) for i in range(self.ext(n, s)))
        return out

    def _class(self, x, dim_of):
        if not isinstance(x, (tuple, list)) or len(x) != 3:
            raise InputError("a class is (n, s, i) or (n, s, [v0, v1, ...]), not %r" % (x,))
        n, s, v = _int(x[0], "n"), _int(x[1], "s"), x[2]
        if not isinstance(v, (list, tuple)):
            v = _int(v, "a class index")
            d = dim_of(n, s)
            if v < 0 or v >= d:
                raise InputError("x_(%d, %d, %d) does not exist: Ext at (%d, %d) has "
                                 "dimension %d" % (n, s, v, n, s, d))
            v = [1 if i == v else 0 for i in range(d)]
        return n, s, list(v)

    def _dim_or_zero(self, n, s):
        d = self._c("adams_ext_dim", n, s)
        return max(int(d), 0)

    def _sphere_dim(self, n, s):
        err = _err()
        d = self._c("adams_sphere_dim", n, s, err, len(err))
        if d < 0:
            _raise(int(d), err)
        return int(d)

    # ---- products ------------------------------------------------------------
    def _no_cofiber(self):
        if self.cofiber:
            raise InputError("%s is the cofiber of a class: its products and chart are not "
                             "available (its Ext comes from two resolutions)" % self.module)

    def filtration_one(self):
        """The filtration-one classes that act: [(k, name, t)] (h_k at p = 2;
        a_0, h_0, ... at odd p), t the internal degree."""
        out = []
        buf = ctypes.create_string_buffer(16)
        for k in range(31):
            t = self._c("adams_filt1_degree", k)
            if t < 0:
                continue
            self._c("adams_filt1_name", k, buf, len(buf))
            out.append((k, buf.value.decode(), int(t)))
        return out

    def _filt1(self, k, n, s, v):
        t = self._c("adams_filt1_degree", k)
        tn, ts = n + t - 1, s + 1
        d = self._c("adams_ext_dim", tn, ts)
        if t < 0 or d < 0:
            return None
        xa, xl = _vec(v)
        out = (ctypes.c_int32 * max(d, 1))()
        err = _err()
        rc = self._c("adams_filt1_product", k, n, s, xa, xl, out, d, err,
                                           len(err))
        if rc:
            _raise(rc, err)
        return (tn, ts, list(out)[:d])

    def products(self, x=None):
        """With a class x: {name: (n', s', vector)} for every filtration-one
        class whose target lies in the region.  Without: every nonzero-target
        line of `adams products` as (name, (n, s, i), vector), in its order."""
        self._no_cofiber()
        if x is not None:
            n, s, v = self._class(x, self._dim_or_zero)
            out = {}
            for k, name, _t in self.filtration_one():
                r = self._filt1(k, n, s, v)
                if r is not None:
                    out[name] = r
            return out
        lines = []
        f1 = self.filtration_one()
        for n in range(self.min_stem, self.stem + 1):
            for s in range(self.max_s + 1):
                d = self.ext(n, s)
                for k, name, _t in f1 if d else ():
                    for i in range(d):
                        r = self._filt1(k, n, s, [1 if j == i else 0 for j in range(d)])
                        if r is None:
                            break
                        if r[2]:
                            lines.append((name, (n, s, i), r[2]))
                    if r is None:
                        break
        return lines

    def product(self, x, y):
        """y . x for x a class of Ext(module) and y a class of Ext(S_p):
        (n + n', s + s', vector)."""
        n, s, xv = self._class(x, self._dim_or_zero)
        n2, s2, yv = self._class(y, self._sphere_dim)
        tn, ts = n + n2, s + s2
        d = self._dim_or_zero(tn, ts)
        xa, xl = _vec(xv)
        ya, yl = _vec(yv)
        out = (ctypes.c_int32 * max(d, 1))()
        err = _err()
        rc = self._c("adams_product", n, s, xa, xl, n2, s2, ya, yl, out, d,
                                     err, len(err))
        if rc:
            _raise(rc, err)
        return (tn, ts, list(out)[:d])

    def massey(self, a, b, c):
        """<a, b, c> for a, b classes of Ext(S_p) (filtration >= 1) and c of
        Ext(module), a b = 0 = b c: a Massey(stem, s, value, indeterminacy)."""
        na, sa, av = self._class(a, self._sphere_dim)
        nb, sb, bv = self._class(b, self._sphere_dim)
        nc, sc, cv = self._class(c, self._dim_or_zero)
        tn, ts = na + nb + nc + 1, sa + sb + sc - 1
        d = self._dim_or_zero(tn, ts)
        arrs = [_vec(v) for v in (av, bv, cv)]
        out = (ctypes.c_int32 * max(d, 1))()
        ind = (ctypes.c_int32 * max(d * d, 1))()
        rows = ctypes.c_int64()
        err = _err()
        rc = self._c("adams_massey", na, sa, arrs[0][0], arrs[0][1], nb, sb,
                                    arrs[1][0], arrs[1][1], nc, sc, arrs[2][0], arrs[2][1],
                                    out, d, ind, d * d, ctypes.byref(rows), err, len(err))
        if rc:
            _raise(rc, err)
        flat = list(ind)
        basis = [flat[i * d:(i + 1) * d] for i in range(rows.value)]
        return Massey(tn, ts, list(out)[:d], basis)

    # ---- the chart -------------------------------------------------------------
    def svg(self):
        """The SVG chart of the region (the library's writer, docs/charts.md)."""
        buf, n, err = ctypes.c_void_p(), ctypes.c_size_t(), _err()
        rc = self._c("adams_svg", ctypes.byref(buf), ctypes.byref(n), err,
                                 len(err))
        if rc:
            _raise(rc, err)
        try:
            return ctypes.string_at(buf, n.value).decode("utf-8")
        finally:
            self._lib.adams_free_buffer(buf)

    def _repr_svg_(self):
        return None if self.cofiber else self.svg()
