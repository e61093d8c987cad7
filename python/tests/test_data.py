"""Data: zero-copy views, stepping, copies, poses; bit-identity with C;
threads."""

import math
import os
import subprocess
import threading

import numpy as np
import pytest

import linkage
from conftest import mech


def test_views_are_the_librarys_memory():
    d = linkage.load(mech("pendulum.yaml")).data()
    q = d.q
    assert q.dtype == np.float64 and q.shape == (1,) and q.flags.writeable
    assert np.shares_memory(q, d.q)
    assert q[0] == pytest.approx(1.0472)
    d.step(10)
    assert q[0] == d.q[0] != 1.0472  # an old view sees the new state
    assert not d.qacc.flags.writeable
    assert not d.actuator_forces.flags.writeable


def test_writing_q_changes_the_next_step():
    m = linkage.load(mech("pendulum.yaml"))
    a = m.data()
    a.q[0] = 0.25
    a.v[0] = -0.5
    a.step(200)
    b = linkage.load(mech("pendulum.yaml"), overrides={"initial.hinge.q": 0.25,
                                                        "initial.hinge.v": -0.5}).data()
    b.step(200)
    assert a.q[0] == b.q[0] and a.v[0] == b.v[0]  # bit-identical
    c = m.data()
    c.step(200)
    assert c.q[0] != a.q[0]


def test_whole_array_assignment_checks_shape_and_dtype():
    d = linkage.load(mech("arm7.yaml")).data()
    d.q = np.arange(7) * 0.1
    assert d.q[6] == pytest.approx(0.6)
    with pytest.raises(ValueError):
        d.q = [1.0, 2.0]
    with pytest.raises((ValueError, TypeError)):
        d.q = ["a"] * 7
    with pytest.raises(TypeError):
        d.q = np.ones(7, dtype=complex)
    with pytest.raises(AttributeError):
        d.qacc = np.zeros(7)


def test_pendulum_small_swing_period():
    # T = 2 pi sqrt(I / (m g l)), I = m l^2 + 2/5 m r^2 (the bob's sphere)
    m = linkage.load(mech("pendulum.yaml"), overrides={"initial.hinge.q": 0.02})
    d = m.data()
    crossings = []
    prev = d.q[0]
    while len(crossings) < 3 and d.time < 5:
        d.step()
        if prev > 0 >= d.q[0] or prev < 0 <= d.q[0]:
            crossings.append(d.time)
        prev = d.q[0]
    period = crossings[2] - crossings[0]
    inertia = 0.5 ** 2 + 0.4 * 0.031 ** 2
    assert period == pytest.approx(2 * math.pi * math.sqrt(inertia / (9.81 * 0.5)), rel=2e-3)


def test_poses_and_velocities_by_name():
    d = linkage.load(mech("pendulum.yaml")).data()
    d.q[0] = 0.3
    d.v[0] = 2.0
    d.forward()
    p, R = d.link_pose("bob")
    assert np.allclose(p, [0, 0, 1])
    c, s = math.cos(0.3), math.sin(0.3)
    assert np.allclose(R, [[c, 0, s], [0, 1, 0], [-s, 0, c]], atol=1e-12)
    bob = d.point_position("bob", [0, 0, -0.5])
    assert np.allclose(bob, [-0.5 * s, 0, 1 - 0.5 * c], atol=1e-12)
    w, lin = d.link_velocity(1)
    assert np.allclose(w, [0, 2, 0]) and np.allclose(lin, 0)
    assert np.allclose(d.point_velocity("bob", [0, 0, -0.5]), [-1.0 * c, 0, 1.0 * s], atol=1e-12)
    with pytest.raises(KeyError):
        d.link_pose("nope")
    with pytest.raises(ValueError):
        d.point_position("bob", [0, 0])


def test_time_and_report():
    d = linkage.load(mech("pendulum.yaml")).data()
    d.step(n=250)
    assert d.time == pytest.approx(0.25)
    r = d.report
    assert isinstance(r, linkage.StepReport)
    assert r.status == "LK_OK" and r.nrows == 0 and r.ncontacts == 0
    # no margin contact, no impact: nothing set aside, no impact work
    assert r.aside_contacts == 0 and r.impact_work == 0 and r.restitution_scale == 0
    assert r.impacts_propagated == 0 and r.coupled_answers == 0
    # the swinging link's velocity forces taken at the midpoint, settled
    assert r.velocity_passes >= 1 and not r.velocity_explicit and r.ridge_kept == 0
    assert r.islands == ()
    d.time = 10.0
    assert d.time == 10.0
    with pytest.raises(ValueError):
        d.time = float("nan")
    d.reset()
    assert d.time == 0 and d.q[0] == pytest.approx(1.0472)


def test_step_arguments():
    d = linkage.load(mech("pendulum.yaml")).data()
    with pytest.raises(ValueError):
        d.step(-1)
    with pytest.raises(TypeError):
        d.step("10")
    with pytest.raises(TypeError):
        d.step(1, 2)
    with pytest.raises(TypeError):
        d.step(m=3)
    d.step(0)
    assert d.time == 0


def test_failed_step_raises_and_leaves_the_data():
    d = linkage.load(mech("pendulum.yaml")).data()
    d.step(5)
    d.v[0] = float("nan")
    t = d.time
    with pytest.raises(linkage.StepError) as e:
        d.step(10)
    assert e.value.status == "LK_NON_FINITE"
    assert e.value.steps_done == 0
    assert d.time == t


def test_copy_continues_bit_identically():
    d = linkage.load(mech("block_on_incline.yaml"),
                     overrides={"materials.wood.mu_static": 0.3,
                                "materials.wood.mu_dynamic": 0.25}).data()
    d.step(300)
    c = d.copy()
    assert not np.shares_memory(c.q, d.q)
    d.step(300)
    c.step(300)
    assert np.array_equal(c.q, d.q) and np.array_equal(c.v, d.v)


def test_actuator_targets_view():
    m = linkage.load(mech("arm7.yaml"))
    d = m.data()
    t = d.targets
    assert np.array_equal(t, [0.5, 0.7, 0.0, -1.4, 0.0, 0.7, 0.0])
    t[m.actuator_index("j1")] = -0.3  # j1 turns about the vertical: no gravity load
    d.step(3000)
    assert d.q[m.joint("j1")["qadr"]] == pytest.approx(-0.3, abs=1e-3)
    assert abs(d.actuator_forces[0]) < 1.0
    t[0] = float("inf")
    with pytest.raises(ValueError):
        d.step()


def _c_state(builddir, path, n):
    prog = os.path.join(builddir, "python", "tests", "step_c")
    if not os.path.exists(prog):
        pytest.skip("python/tests/step_c is built by make check")
    out = subprocess.run([prog, path, str(n)], capture_output=True, text=True, check=True).stdout
    vals = {"t": [], "q": [], "v": []}
    for line in out.split("\n"):
        if line:
            k, x = line.split()
            vals[k].append(float.fromhex(x))
    return vals


@pytest.mark.parametrize("name", ["arm7.yaml", "block_on_incline.yaml"])
def test_bit_identical_with_c(builddir, name):
    c = _c_state(builddir, mech(name), 10000)
    m = linkage.load(mech(name))
    a = m.data()
    a.step(10000)
    b = m.data()
    for _ in range(10000):
        b.step()
    for d in (a, b):
        assert d.time == c["t"][0]
        assert d.q.tolist() == c["q"]
        assert d.v.tolist() == c["v"]


def test_two_threads_two_datas():
    m = linkage.load(mech("arm7.yaml"))
    ref = m.data()
    ref.step(2000)
    datas = [m.data(), m.data()]
    threads = [threading.Thread(target=d.step, args=(2000,)) for d in datas]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for d in datas:
        assert np.array_equal(d.q, ref.q)


def test_ctrl_c_stops_a_long_step_after_a_whole_step():
    """A step(n) of hours is stopped by SIGINT within a fraction of a
    second, raising KeyboardInterrupt; the data holds the steps done
    (time a whole number of steps), and stepping goes on from there."""
    import signal
    import sys
    import time
    code = r"""
import signal, sys, linkage, numpy as np
# Python's own Ctrl-C handler, whatever the parent left: a test run from a
# background job (`make check &`) inherits SIGINT ignored, and Python then
# never installs it (the child ran on, and the test timed out)
signal.signal(signal.SIGINT, signal.default_int_handler)
m = linkage.load(sys.argv[1]); d = m.data()
print("ready", flush=True)
try:
    d.step(10**12)
    print("finished")
except KeyboardInterrupt:
    # the same number of whole steps, in one call
    ref = m.data()
    ref.step(1)
    n = int(round(d.time / ref.time))
    ref.step(n - 1)
    print("interrupted", n > 1 and ref.time == d.time,
          np.array_equal(ref.q, d.q) and np.array_equal(ref.v, d.v))
    d.step(10); ref.step(10)
    print("after", np.array_equal(ref.q, d.q))
"""
    env = dict(os.environ)
    p = subprocess.Popen([sys.executable, "-c", code, mech("pendulum.yaml")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    waited = time.monotonic() - t0
    assert p.returncode == 0, err
    lines = out.split("\n")
    assert lines[0] == "interrupted True True", out
    assert lines[1] == "after True", out
    assert waited < 5, waited  # a 50 ms slice, on a loaded machine


def test_one_data_stepped_from_two_threads_is_refused():
    d = linkage.load(mech("arm7.yaml")).data()
    errors = []

    def run():
        try:
            d.step(20000)
        except linkage.Error as e:
            errors.append(e)

    th = threading.Thread(target=run)
    th.start()
    refused = None
    while th.is_alive() and refused is None:
        try:
            d.step()
        except linkage.Error as e:
            refused = e
    th.join()
    # The GIL is released in step(n): the main thread ran while the other
    # stepped, and was refused (or, had it started first, refused the other)
    assert refused is not None or errors
    assert refused is None or "another thread" in str(refused)
    assert not errors or "another thread" in str(errors[0])


def test_close_with_and_without_views():
    d = linkage.load(mech("pendulum.yaml")).data()
    q = d.q
    with pytest.raises(linkage.Error) as e:
        d.close()
    assert "view" in str(e.value)
    q[0] = 0.1  # still valid
    del q
    d.close()
    assert d.closed
    for f in (lambda: d.q, lambda: d.step(), lambda: d.time, lambda: d.contacts(), d.copy):
        with pytest.raises(linkage.Error) as e:
            f()
        assert "closed" in str(e.value)
    d.close()  # twice is harmless


def test_view_outlives_its_data_name():
    q = linkage.load(mech("pendulum.yaml")).data().q  # data and model only in the view
    q[0] = 0.5
    assert q[0] == 0.5
    v = linkage.load(mech("arm7.yaml")).data().targets
    assert v.base is not None and v.sum() == pytest.approx(0.5)


def test_context_manager():
    with linkage.load(mech("pendulum.yaml")).data() as d:
        d.step(3)
        t = d.time
    assert d.closed and t == pytest.approx(0.003)


def test_loads():
    m = linkage.load(mech("pendulum.yaml"), overrides={"initial.hinge.q": 0.0})
    d = m.data()
    d.tau[0] = 1.0  # N m about y, from rest at the bottom: qacc = tau / I
    d.step()
    assert d.qacc[0] == pytest.approx(1.0 / (0.25 + 0.4 * 0.031 ** 2), rel=1e-9)
    d.clear_loads()
    assert d.tau[0] == 0
    d.apply_force("bob", [0, 0, 0.5], [1.0, 0, 0])  # at the bob's centre, along +x
    d.step()
    # r x F about the hinge: (0, 0, -0.5) x (1, 0, 0) = (0, -0.5, 0)
    assert d.qacc[0] == pytest.approx(-0.5 / (0.25 + 0.4 * 0.031 ** 2), rel=1e-2)
    d.clear_loads()
    d.apply_torque(1, [0, 2.0, 0])
    with pytest.raises(ValueError):
        d.apply_force("bob", [0, 0, 0], [float("nan"), 0, 0])


def test_island_reports(tmp_path):
    # a box on the floor: its one island planned by the sticking trial at
    # the first step, then mostly answered from the impulses in hand
    text = (
        "world:\n  geoms:\n    - {type: plane}\n"
        "links:\n  - name: box\n    joint: {type: free}\n    mass: 1.3\n"
        "    geoms:\n      - {type: box, half_extents: [0.1, 0.07, 0.05]}\n"
        "initial:\n  - {joint: box, q: [0.2, -0.1, 0.050000, 1, 0, 0, 0]}\n"
    )
    f = tmp_path / "box.yaml"
    f.write_text(text)
    d = linkage.load(f).data()
    d.step()
    (isl,) = d.report.islands
    assert isinstance(isl, linkage.IslandReport)
    assert isl.contacts == 4 and isl.rows == d.report.nrows
    assert isl.planned == "sticking trial" and isl.reason and isl.settled
    answered = []
    for _ in range(100):
        d.step()
        answered.append(d.report.islands[0].answered)
    assert answered.count("guess") > 50
