"""linkage.grasp on arrays: the grasp matrix, force closure, epsilon and
volume against closed forms."""

import numpy as np
import pytest

import linkage


def test_grasp_matrix_columns_are_wrenches():
    p = np.array([[0.04, 0.0, 0.0], [0.0, 0.03, 0.01]])
    n = np.array([[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]])
    G = linkage.grasp.matrix(p, n, mu=0.5)
    assert G.shape == (6, 6)
    for k in range(2):
        F = G[:3, 3 * k:3 * k + 3]
        assert np.allclose(F[:, 0], n[k])  # the normal first
        assert np.allclose(F.T @ F, np.eye(3), atol=1e-12)  # (n, t1, t2) orthonormal
        assert np.allclose(np.linalg.det(F), 1.0)  # right-handed
        for j in range(3):
            assert np.allclose(G[3:, 3 * k + j], np.cross(p[k], F[:, j]), atol=1e-15)
    Gs = linkage.grasp.matrix(p, n, mu=0.5, torsion=[0.01, 0.0])
    assert Gs.shape == (6, 7)
    assert np.allclose(Gs[:, 3], np.r_[0, 0, 0, n[0]])  # unit moment about n


def test_antipodal_hard_fingers_cannot_resist_twist():
    p = np.array([[0.05, 0, 0], [-0.05, 0, 0]])
    n = np.array([[-1.0, 0, 0], [1.0, 0, 0]])
    r = linkage.grasp.force_closure(p, n, mu=0.5)
    assert not r["closed"]
    # the twist about the line through the contacts is unresisted
    u = r["unresisted"]
    assert abs(abs(u[3]) - 1) < 1e-6 and np.allclose(u[[0, 1, 2, 4, 5]], 0, atol=1e-6)
    q = linkage.grasp.quality(p, n, mu=0.5)
    assert q["epsilon"] == 0 and not q["force_closure"]


def test_antipodal_soft_fingers_close():
    p = np.array([[0.05, 0, 0], [-0.05, 0, 0]])
    n = np.array([[-1.0, 0, 0], [1.0, 0, 0]])
    r = linkage.grasp.force_closure(p, n, mu=0.5, torsion=0.01)
    assert r["closed"] and r["rank"] == 6 and r["reason"] == "closed"
    q = linkage.grasp.quality(p, n, mu=0.5, torsion=0.01)
    assert q["force_closure"] and q["epsilon"] > 0 and q["volume"] > 0
    assert q["torque_scale"] == pytest.approx(0.05)
    # the weakest direction is the twist about the contacts' line: half of
    # each contact's torsion bound (0.01 N m per N), over rho = 0.05 m
    assert q["epsilon"] == pytest.approx(0.01 / 0.05, rel=1e-9)
    # more friction, a larger wrench space, the twist still the weakest
    q2 = linkage.grasp.quality(p, n, mu=1.0, torsion=0.01)
    assert q2["volume"] > q["volume"] and q2["epsilon"] == pytest.approx(q["epsilon"])
    assert linkage.grasp.epsilon(p, n, mu=1.0, torsion=0.01) == q2["epsilon"]


def test_frictionless_cannot_close():
    # six frictionless contacts, one on each face of a cube, through the centre
    n = np.vstack([np.eye(3), -np.eye(3)])
    p = -0.05 * n
    r = linkage.grasp.force_closure(p, n)
    assert not r["closed"] and r["rank"] == 3


def test_bad_arrays():
    with pytest.raises(ValueError):
        linkage.grasp.matrix(np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError):
        linkage.grasp.matrix(np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError):
        linkage.grasp.quality(np.zeros((2, 3)), [[1, 0, 0], [-1, 0, 0]], mu=[0.5])
    with pytest.raises(linkage.Error):
        linkage.grasp.matrix(np.zeros((1, 3)), np.zeros((1, 3)))  # zero normal
    with pytest.raises(TypeError):
        linkage.grasp.matrix(np.zeros((1, 3), complex), [[0, 0, 1]])


def _mech(name):
    import os
    from conftest import SRCDIR
    return os.path.join(SRCDIR, "mechanisms", name)


def test_plan_box_same_rows_for_any_jobs():
    a = linkage.grasp.plan(_mech("jaw_gripper.yaml"), _mech("object_box.yaml"), n=24, verify=2,
                           jobs=1)
    b = linkage.grasp.plan(_mech("jaw_gripper.yaml"), [_mech("object_box.yaml")], n=24,
                           verify=2, jobs=2)
    assert a.dtype == linkage.grasp.plan_dtype and len(a) == 24
    assert a.tobytes() == b.tobytes()
    assert list(a["rank"]) == list(range(24))
    assert a["verified"][:2].all() and not a["verified"][2:].any()
    assert sorted(a["candidate"]) == list(range(24))
    closed = a["screen"] == "closed"
    assert closed.any()
    # unverified rows: closed first, by epsilon
    rest = a[2:]
    keys = [(s != "closed", -e) for s, e in zip(rest["screen"], rest["epsilon"])]
    assert keys == sorted(keys)
    assert a["held"][0]  # a jaw gripper holds a box
    d = linkage.grasp.plan(_mech("jaw_gripper.yaml"), _mech("object_box.yaml"), n=4, verify=1,
                           as_dicts=True)
    assert isinstance(d, list) and set(d[0]) == set(linkage.grasp.plan_dtype.names)


def test_scene_screen_and_trial():
    s = linkage.grasp.Scene(_mech("jaw_gripper.yaml"), _mech("object_box.yaml"))
    assert s.nfinger == 2 and s.object_mass > 0
    rows = s.screen(8, seed=3)
    assert list(rows["index"]) == list(range(8))
    assert np.allclose(np.linalg.norm(rows["quaternion"], axis=1), 1)
    again = s.screen(8, seed=3, jobs=3)
    assert rows.tobytes() == again.tobytes()
    other = s.screen(8, seed=4)
    assert not np.array_equal(rows["position"], other["position"])
    best = np.argmax(rows["epsilon"])
    t = s.trial(np.hstack([rows["position"][best], rows["quaternion"][best]])[None, :])
    assert len(t) == 1 and t["steps"][0] > 0
    assert t["outcome"][0] in ("held", "dropped", "no contact", "collision")
    with pytest.raises(ValueError):
        s.trial(np.zeros((1, 6)))
    with pytest.raises(ValueError):
        s.trial(np.zeros((1, 7)))  # zero quaternion
    with pytest.raises(ValueError):
        s.screen(4, sample="spiral")


def test_scene_errors(tmp_path):
    with pytest.raises(linkage.Error) as e:
        linkage.grasp.Scene(tmp_path / "nohand.yaml", _mech("object_box.yaml"))
    assert e.value.status == "LK_IO_ERROR"


def _turned_hand(tmp_path, rpy):
    """jaw_gripper.yaml with its palm turned by rpy on a massless root."""
    text = open(_mech("jaw_gripper.yaml")).read()
    palm = "  - name: palm\n    origin: {xyz: [0, 0, 0.3]}\n    joint: fixed\n"
    assert palm in text
    turned = ("  - name: plate\n    origin: {xyz: [0, 0, 0.3]}\n    joint: fixed\n    mass: 0\n"
              "  - name: palm\n    parent: plate\n    origin: {xyz: [0, 0, 0], rpy: [%r, %r, %r]}\n"
              "    joint: fixed\n" % tuple(rpy))
    path = tmp_path / "turned.yaml"
    path.write_text(text.replace(palm, turned))
    return path


def test_scene_palm_and_approach(tmp_path):
    """A hand turned on its root is the published hand when told its
    approach or its palm: the same screened poses and outcomes."""
    box = _mech("object_box.yaml")
    ref = linkage.grasp.Scene(_mech("jaw_gripper.yaml"), box).screen(40, seed=2)
    hand = _turned_hand(tmp_path, (0.0, np.pi / 2, 0.0))
    by_approach = linkage.grasp.Scene(hand, box, approach=(-1, 0, 0)).screen(40, seed=2)
    by_palm = linkage.grasp.Scene(hand, box, palm="palm").screen(40, seed=2)
    for rows in (by_approach, by_palm):
        assert list(rows["outcome"]) == list(ref["outcome"])
        assert np.allclose(rows["position"], ref["position"], atol=1e-12)
        assert np.allclose(rows["epsilon"], ref["epsilon"], atol=1e-9)
    assert (ref["outcome"] == "closed").sum() >= 10
    with pytest.raises(linkage.Error) as e:
        linkage.grasp.Scene(hand, box, palm="wrist")
    assert "wrist" in str(e.value)
    rows = linkage.grasp.plan(hand, box, n=20, verify=1, approach=(-1, 0, 0))
    assert rows["held"][0] == 1


def _l_obj(path, a=0.0625, b=0.125, w=0.03125):
    """An L-shaped prism as one OBJ part: the profile (0,0) (2a,0) (2a,b)
    (a,b) (a,2b) (0,2b) in x-z extruded over y in [0, w]; its hull adds
    half a cell to its three, 1/6."""
    P = [(0, 0), (2 * a, 0), (2 * a, b), (a, b), (a, 2 * b), (0, 2 * b)]
    lines = ["o L"]
    for s in range(2):
        lines += ["v %r %r %r" % (x, s * w, z) for x, z in P]
    for i in range(1, 5):
        lines += ["f 1 %d %d" % (i + 1, i + 2), "f 7 %d %d" % (i + 8, i + 7)]
    for i in range(6):
        j = (i + 1) % 6
        lines += ["f %d %d %d" % (i + 1, i + 7, j + 7), "f %d %d %d" % (i + 1, j + 7, j + 1)]
    path.write_text("\n".join(lines) + "\n")


def test_scene_single_nonconvex_mesh_warns(tmp_path):
    obj = tmp_path / "l.obj"
    _l_obj(obj)
    hand = _mech("jaw_gripper.yaml")
    with pytest.warns(UserWarning, match=r"16\.7 %.*decomposed into 2 convex parts"):
        linkage.grasp.Scene(hand, str(obj), mesh_mass=0.2)
    with pytest.warns(UserWarning, match=r"convex hull \(keep_hull\), which adds 16\.7 %"):
        linkage.grasp.Scene(hand, str(obj), mesh_mass=0.2, keep_hull=True)
