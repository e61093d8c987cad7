"""The examples in examples/python run as a user runs them; what they
print is checked against the physics they claim."""

import math
import os
import re
import subprocess
import sys

import pytest

from conftest import SRCDIR

EX = os.path.join(SRCDIR, "examples", "python")


def run(name, *args, cwd=None):
    r = subprocess.run([sys.executable, os.path.join(EX, name), *args], capture_output=True,
                       text=True, cwd=cwd)
    return r


def test_pd_arm(tmp_path):
    r = run("pd_arm.py", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    m = re.search(r"largest joint error ([0-9.e+-]+) rad", r.stdout)
    assert m and float(m.group(1)) < 1e-3, r.stdout
    page = (tmp_path / "arm.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "arm7" in page
    svg = (tmp_path / "arm.svg").read_text()
    assert "<svg" in svg and "j4.q" in svg


def test_incline_sweep(tmp_path):
    r = run("incline_sweep.py", "--plot", str(tmp_path / "sweep.png"))
    assert r.returncode == 0, r.stderr
    m = re.search(r"threshold between ([0-9.]+) and ([0-9.]+)", r.stdout)
    assert m, r.stdout
    lo, hi = float(m.group(1)), float(m.group(2))
    assert lo < math.tan(math.radians(20)) <= hi and hi - lo < 0.011
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed: no plot" in r.stdout
    else:
        assert (tmp_path / "sweep.png").stat().st_size > 1000


def test_grasp_ycb():
    obj = os.path.join(SRCDIR, "..", "shared", "data", "robots", "ycb", "ycb_objects",
                       "YcbMustardBottle", "collision_vhacd.obj")
    if not os.path.exists(obj):
        pytest.skip("shared/data (the YCB objects) is not beside the source tree")
    r = run("grasp_ycb.py", "-n", "40", "--verify", "2", "--jobs", "2")
    assert r.returncode == 0, r.stderr
    m = re.search(r"(\d+) candidates screened: (\d+) in force closure; (\d+) verified", r.stdout)
    assert m and int(m.group(1)) == 40 and int(m.group(3)) == 2, r.stdout
    assert int(m.group(2)) > 0
