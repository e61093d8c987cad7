"""Contacts, link force records, the tactile summary and the step report
on the incline (closed forms: Coulomb's law on a 20 degree slope)."""

import math

import numpy as np
import pytest

import linkage
from conftest import mech

G = 9.81
S, C = math.sin(math.radians(20)), math.cos(math.radians(20))


def test_block_held_by_static_friction():
    m = linkage.load(mech("block_on_incline.yaml"))
    d = m.data()
    q0 = d.q.copy()
    d.step(500)
    c = d.contacts()
    assert c.dtype == linkage.contact_dtype
    assert len(c) == 4
    assert set(c["state"]) == {"static"}
    assert np.all(c["link"] == m.link_index("block")) and np.all(c["other"] == 0)
    assert np.allclose(c["normal"], [-0.342020, 0, 0.939693], atol=1e-5)
    assert c["fn"].sum() == pytest.approx(G * C, rel=1e-3)
    ft = c["ft"].sum(axis=0)
    assert np.linalg.norm(ft) == pytest.approx(G * S, rel=1e-3)
    assert np.allclose(c["slip_speed"], 0, atol=1e-9)
    # utilization |ft| / (mu_s fn): tan 20 / 0.5 for the block as a whole
    assert np.linalg.norm(ft) / (0.5 * c["fn"].sum()) == pytest.approx(math.tan(math.radians(20)) / 0.5, rel=1e-3)
    assert np.all(c["utilization"] <= 1 + 1e-9)
    assert np.allclose(d.q[:3], q0[:3], atol=1e-5)  # no creep
    r = d.report
    assert r.ncontacts == 4 and r.nrows >= 4 and r.residual < 1e-6
    assert r.status == "LK_OK" and r.detail == ""


def test_block_slides_below_the_slope():
    m = linkage.load(mech("block_on_incline.yaml"),
                     overrides={"materials.wood.mu_static": 0.3, "materials.wood.mu_dynamic": 0.25})
    d = m.data()
    d.step(200)
    v1 = d.v[:3].copy()
    d.step(500)
    v2 = d.v[:3].copy()
    a = np.linalg.norm(v2 - v1) / 0.5
    assert a == pytest.approx(G * (S - 0.25 * C), rel=1e-2)  # 2.26 m/s^2
    c = d.contacts()
    assert set(c["state"]) == {"dynamic"}
    assert np.all(c["slip_speed"] > 0.4)
    assert np.linalg.norm(c["ft"].sum(axis=0)) == pytest.approx(0.25 * c["fn"].sum(), rel=1e-6)


def test_link_forces_and_tactile():
    m = linkage.load(mech("block_on_incline.yaml"))
    d = m.data()
    d.step(500)
    lf = d.link_forces()
    assert lf.dtype == linkage.link_force_dtype
    mine = lf[lf["link"] == 1]
    assert set(mine["kind"]) == {"contact"}
    # the supports carry the block's weight
    assert np.allclose(mine["force"].sum(axis=0), [0, 0, G], atol=1e-3)
    t = d.tactile()
    assert t.dtype == linkage.tactile_dtype and len(t) == m.nlink
    assert t["ncontacts"][1] == 4
    assert t["normal_force"][1] == pytest.approx(G * C, rel=1e-3)
    assert t["utilization"][1] == pytest.approx(math.tan(math.radians(20)) / 0.5, rel=1e-3)
    assert t["slip"][1] == 0


def test_no_contacts_is_an_empty_array():
    d = linkage.load(mech("pendulum.yaml")).data()
    d.step()
    c = d.contacts()
    assert c.shape == (0,) and c.dtype == linkage.contact_dtype
