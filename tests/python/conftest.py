"""Shared fixtures of the Python package's tests (docs/python.md).

The package is imported from python/ of the source tree (ADAMS_PYTHON_DIR
overrides), the library is the one ADAMS_LIBRARY names (ctest sets it to the
build's libadams.so), and the program `adams` the tests compare against is
ADAMS_BIN (ctest: the build's).
"""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.environ.get("ADAMS_PYTHON_DIR", os.path.join(SRC, "python")))

import adams  # noqa: E402


def adams_bin():
    b = os.environ.get("ADAMS_BIN")
    if not b or not os.access(b, os.X_OK):
        pytest.fail("ADAMS_BIN must name the built adams program (ctest sets it)")
    return b


def cli(*args, check=True):
    """Runs the program: (exit status, stdout, stderr)."""
    p = subprocess.run([adams_bin(), *args], capture_output=True, text=True, timeout=300)
    if check and p.returncode != 0:
        pytest.fail("adams %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p.returncode, p.stdout, p.stderr


def csv_of(r):
    """The `n,s,dim` CSV of the program (adams resolve --format csv) from r."""
    return "".join("%d,%d,%d\n" % (n, s, r.ext(n, s))
                   for n in range(r.min_stem, r.stem + 1) for s in range(r.max_s + 1))


def cli_name(name):
    """The program's spelling of a filtration-one class: h0 -> h_0, a0 -> a_0."""
    return name[0] + "_" + name[1:]


def products_text(r):
    """`adams products` from r.products()."""
    return "".join("%s x_(%d, %d, %d) = [%s]\n" % (cli_name(c), n, s, i,
                                                   ", ".join(map(str, v)))
                   for c, (n, s, i), v in r.products())


@pytest.fixture
def tmp(tmp_path):
    return tmp_path
