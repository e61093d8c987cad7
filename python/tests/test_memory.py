"""Reference counting and memory over 100 000 steps (tracemalloc and
sys.getrefcount), and views that keep their data alive."""

import gc
import sys
import tracemalloc

import numpy as np

import linkage
from conftest import mech


def _loop(d, n):
    total = 0.0
    for _ in range(n):
        d.step()
        total += d.q[0]
        d.tau[0] = 0.0
    r = d.report
    c = d.contacts()
    return total + r.residual + len(c)


def test_no_leak_over_100000_steps():
    m = linkage.load(mech("block_on_incline.yaml"))
    d = m.data()
    _loop(d, 1000)  # warm: first-use allocations of the interpreter
    gc.collect()
    rm, rd = sys.getrefcount(m), sys.getrefcount(d)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(99):
        _loop(d, 1000)
        d.link_forces()
        d.tactile()
        d.link_pose("block")
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename") if s.size_diff > 0)
    assert grown < 64 * 1024, "%d bytes grew over 100 000 steps" % grown
    assert (sys.getrefcount(m), sys.getrefcount(d)) == (rm, rd)
    assert d.time == np.float64(100 * 1000 * 0.001) or abs(d.time - 100.0) < 1e-9


def test_views_hold_and_release_their_data():
    m = linkage.load(mech("pendulum.yaml"))
    rm = sys.getrefcount(m)
    d = m.data()
    assert sys.getrefcount(m) == rm + 1  # the data holds its model
    rd = sys.getrefcount(d)
    views = [d.q, d.v, d.tau, d.qacc, d.targets, d.actuator_forces]
    assert sys.getrefcount(d) == rd + len(views)
    del views
    gc.collect()
    assert sys.getrefcount(d) == rd
    d.close()  # no view left: allowed
    del d
    gc.collect()
    assert sys.getrefcount(m) == rm


def test_many_datas_and_copies_are_freed():
    m = linkage.load(mech("arm7.yaml"))
    tracemalloc.start()
    for _ in range(50):
        d = m.data()
        d.step(10)
        c = d.copy()
        c.step(10)
        q = c.q
        del d, c, q
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    for _ in range(200):
        d = m.data()
        d.step(10)
        c = d.copy()
        del d, c
    gc.collect()
    snap2 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in snap2.compare_to(snap1, "filename") if s.size_diff > 0)
    assert grown < 16 * 1024
