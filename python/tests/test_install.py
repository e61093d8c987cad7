"""`make install` into a prefix, then `import linkage` from a clean
environment with only that prefix's site directory on PYTHONPATH: the
installed module finds the installed liblinkage by its RUNPATH, with no
LD_LIBRARY_PATH (issue 34), here with `make install prefix=DIR`, the
harder case (the prefix is not the configured one)."""

import os
import subprocess
import sys

import pytest

from conftest import SRCDIR


def test_install_and_import_from_a_clean_shell(builddir, tmp_path):
    prefix = str(tmp_path / "prefix")
    make = os.environ.get("MAKE", "make")
    # a make of its own (under make check, MAKEFLAGS would print directories)
    menv = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    r = subprocess.run([make, "-C", builddir, "install", "prefix=" + prefix],
                       capture_output=True, text=True, env=menv)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    site = subprocess.run([make, "-s", "--no-print-directory", "-C", builddir,
                           "print-python-sitedir", "prefix=" + prefix],
                          capture_output=True, text=True, check=True, env=menv).stdout.strip()
    assert site.startswith(prefix + "/")
    assert os.path.exists(os.path.join(site, "linkage", "__init__.py"))
    assert os.path.exists(os.path.join(site, "linkage", "_linkage.so"))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": site}
    for k in ("LD_PRELOAD", "ASAN_OPTIONS"):  # the sanitizer build's interpreter
        if k in os.environ:
            env[k] = os.environ[k]
    code = ("import linkage, sys; m = linkage.load(sys.argv[1]); d = m.data(); d.step(100); "
            "print(linkage.__file__); print('%.3f' % d.time)")
    out = subprocess.run([sys.executable, "-c", code, os.path.join(SRCDIR, "mechanisms",
                                                                   "pendulum.yaml")],
                         env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split()
    assert lines[0].startswith(site) and lines[1] == "0.100"
