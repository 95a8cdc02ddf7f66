"""Builds the package adams (pyproject.toml has the metadata).

One step besides setuptools' own: the shared library is copied into the
package when one is known at install time -- ADAMS_LIBRARY (a path to
libadams.so), else ../build/libadams.so (the source tree's default build,
README.md) -- so that `pip install ./python` after building gives a package
that needs nothing else.  Without one the package finds the library at
import (adams/_native.py).  No compiler, no network.
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def shared_library():
    env = os.environ.get("ADAMS_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise SystemExit("ADAMS_LIBRARY=%s: no such file" % env)
        return env
    built = os.path.join(HERE, "..", "build", "libadams.so")
    return built if os.path.isfile(built) else None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        lib = shared_library()
        if lib:
            dest = os.path.join(self.build_lib, "adams", "libadams.so")
            shutil.copyfile(os.path.realpath(lib), dest)
            print("adams: bundled %s" % os.path.realpath(lib))


setup(cmdclass={"build_py": BuildWithLibrary})
