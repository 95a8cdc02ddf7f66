"""adams_build: the package's own PEP 517 build backend, standard library only.

Why: `pip install ./python` must work offline in a fresh virtual environment.
With setuptools as the backend pip first downloads setuptools into an isolated
build environment (the package index is not reachable here, and a fresh venv
has no `wheel`), so the install failed unless the user knew to pass
--no-build-isolation from a venv with the system's packages.  This backend
needs nothing: the package is pure Python (ctypes over libadams), so a wheel
is a zip of adams/*.py, the bundled library and the .dist-info metadata.

The library: ADAMS_LIBRARY (a path to libadams.so), else ../build/libadams.so
(the source tree's default build, README.md), is copied into the wheel as
adams/libadams.so; the wheel is then tagged for this platform
(py3-none-linux_x86_64), otherwise py3-none-any and the package finds the
library at import (adams/_native.py).  An ADAMS_LIBRARY that is not a file is
an error, never silently skipped.
"""
import base64
import hashlib
import io
import os
import re
import sysconfig
import tarfile
import zipfile

NAME = "adams"
SUMMARY = "Ext over the Steenrod algebra (Adams E2 pages) from Python, over libadams"
REQUIRES_PYTHON = ">=3.8"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/


def _version():
    with open(os.path.join(HERE, NAME, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__ = "([^"]+)"', f.read(), re.M)
    if not m:
        raise RuntimeError("adams/__init__.py has no __version__")
    return m.group(1)


def _library():
    env = os.environ.get("ADAMS_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise RuntimeError("ADAMS_LIBRARY=%s: no such file" % env)
        return os.path.realpath(env)
    built = os.path.join(HERE, "..", "build", "libadams.so")
    return os.path.realpath(built) if os.path.isfile(built) else None


def _metadata():
    readme = os.path.join(HERE, "README.md")
    body = open(readme, encoding="utf-8").read() if os.path.isfile(readme) else ""
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n"
            "Requires-Python: %s\nDescription-Content-Type: text/markdown\n\n%s"
            % (NAME, _version(), SUMMARY, REQUIRES_PYTHON, body))


def _tag(lib):
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_") if lib else "any"
    return "py3-none-" + plat


def _files():
    """(path in the wheel, bytes) of the package."""
    out = []
    pkg = os.path.join(HERE, NAME)
    for name in sorted(os.listdir(pkg)):
        if name.endswith(".py"):
            with open(os.path.join(pkg, name), "rb") as f:
                out.append(("%s/%s" % (NAME, name), f.read()))
    lib = _library()
    if lib:
        with open(lib, "rb") as f:
            out.append(("%s/libadams.so" % NAME, f.read()))
    return out, lib


def _dist_info(tag):
    d = "%s-%s.dist-info" % (NAME, _version())
    wheel = ("Wheel-Version: 1.0\nGenerator: adams_build\nRoot-Is-Purelib: %s\nTag: %s\n"
             % ("true" if tag.endswith("any") else "false", tag))
    return d, [(d + "/METADATA", _metadata().encode()), (d + "/WHEEL", wheel.encode()),
               (d + "/top_level.txt", (NAME + "\n").encode())]


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d\n" % (path, digest, len(data))


# ---- PEP 517 hooks -----------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d, meta = _dist_info(_tag(_library()))
    os.makedirs(os.path.join(metadata_directory, d), exist_ok=True)
    for path, data in meta:
        with open(os.path.join(metadata_directory, path), "wb") as f:
            f.write(data)
    return d


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files, lib = _files()
    tag = _tag(lib)
    d, meta = _dist_info(tag)
    name = "%s-%s-%s.whl" % (NAME, _version(), tag)
    record = "".join(_record_line(p, b) for p, b in files + meta) + d + "/RECORD,,\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files + meta + [(d + "/RECORD", record.encode())]:
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return name


def build_sdist(sdist_directory, config_settings=None):
    base = "%s-%s" % (NAME, _version())
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for rel in ["pyproject.toml", "README.md", "_backend/adams_build.py"] + [
                NAME + "/" + f for f in sorted(os.listdir(os.path.join(HERE, NAME)))
                if f.endswith(".py")]:
            t.add(os.path.join(HERE, rel), arcname=base + "/" + rel)
        pkg_info = _metadata().encode()
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(pkg_info)
        t.addfile(info, io.BytesIO(pkg_info))
    return name
