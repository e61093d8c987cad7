"""linkage.lcp: closed-form LCPs with every solver, problem files, bad
input."""

import os

import numpy as np
import pytest

import linkage
from conftest import SRCDIR

M2 = np.array([[2.0, 1.0], [1.0, 2.0]])


@pytest.mark.parametrize("solver", linkage.lcp.SOLVERS)
def test_standard_lcp(solver):
    z, w, r = linkage.lcp.solve(M2, [-1.0, -1.0], solver=solver)
    assert np.allclose(z, [1 / 3, 1 / 3], atol=1e-8) and np.allclose(w, 0, atol=1e-8)
    assert r["ok"] and r["solver"] == solver and r["status"] == "LK_OK"
    z, w, r = linkage.lcp.solve(M2, [1.0, 3.0], solver=solver)
    assert np.allclose(z, 0) and np.allclose(w, [1, 3])


@pytest.mark.parametrize("solver", linkage.lcp.SOLVERS)
def test_boxed_and_free_rows(solver):
    # z0 in [-1, 1] pushed past its bound; z1 free: w1 = 0
    M = np.array([[1.0, 0.0], [0.0, 4.0]])
    z, w, r = linkage.lcp.solve(M, [-5.0, 2.0], solver=solver, lo=[-1, -np.inf],
                                hi=[1, np.inf])
    assert np.allclose(z, [1.0, -0.5], atol=1e-8)
    assert np.allclose(w, [-4.0, 0.0], atol=1e-8)


@pytest.mark.parametrize("solver", ["nsgs", "newton"])
def test_circle_cone(solver):
    # one contact, M = I: z_n = 1, the friction on the disk of radius 0.5
    # along the push (3, 4) / 5: z_t = (0.3, 0.4), w_t = -9 z_t
    z, w, r = linkage.lcp.solve(np.eye(3), [-1.0, -3.0, -4.0], solver=solver,
                                lo=[0, -np.inf, -np.inf], hi=[np.inf] * 3,
                                findex=[-1, 0, 0], mu=[0, 0.5, 0.5], cone=[-1, 2, 1])
    assert np.allclose(z, [1.0, 0.3, 0.4], atol=1e-7)
    assert np.allclose(w[1:], -9 * z[1:], atol=1e-6)


def test_infeasible():
    z, w, r = linkage.lcp.solve([[-1.0]], [-1.0], check=False)
    assert not r["ok"] and r["status"] == "LK_NO_SOLUTION" and r["ray_certified"] == 1
    with pytest.raises(linkage.Error) as e:
        linkage.lcp.solve([[-1.0]], [-1.0])
    assert e.value.status == "LK_NO_SOLUTION"


def test_wrong_input():
    with pytest.raises(ValueError):
        linkage.lcp.solve(np.ones((2, 3)), [1.0, 1.0])
    with pytest.raises(ValueError):
        linkage.lcp.solve(M2, [1.0, 1.0, 1.0])
    with pytest.raises(ValueError):
        linkage.lcp.solve(M2, [1.0, 1.0], lo=[0.0])
    with pytest.raises(TypeError):
        linkage.lcp.solve(M2.astype(complex), [1.0, 1.0])
    with pytest.raises((TypeError, ValueError)):
        linkage.lcp.solve([["a", "b"], ["c", "d"]], [1.0, 1.0])
    with pytest.raises(ValueError):
        linkage.lcp.solve(M2, [1.0, 1.0], solver="simplex")
    with pytest.raises(linkage.Error):
        linkage.lcp.solve(M2, [np.nan, 1.0])
    with pytest.raises(linkage.Error):
        linkage.lcp.solve(M2, [1.0, 1.0], lo=[1.0, 0.0], hi=[0.0, 1.0])
    with pytest.raises(ValueError):
        linkage.lcp.solve(M2, [1.0, 1.0], findex=[-1, 0])  # no mu


def test_compressed_rows_tuple():
    # the form the Python layer hands down from SciPy (indptr, indices, data)
    csr = (np.array([0, 2, 4], np.intc), np.array([0, 1, 0, 1], np.intc), M2.ravel())
    z, w, r = linkage._linkage.lcp_solve(csr, np.array([-1.0, -1.0]), "nsgs")
    assert np.allclose(z, [1 / 3, 1 / 3], atol=1e-8)
    bad = (np.array([0, 2, 4], np.intc), np.array([1, 0, 0, 1], np.intc), M2.ravel())
    with pytest.raises(ValueError):
        linkage._linkage.lcp_solve(bad, np.array([-1.0, -1.0]), "nsgs")


def test_scipy_sparse():
    sparse = pytest.importorskip("scipy.sparse", reason="SciPy is not installed")
    z, w, r = linkage.lcp.solve(sparse.csc_matrix(M2), [-1.0, -1.0], solver="newton")
    assert np.allclose(z, [1 / 3, 1 / 3], atol=1e-8)


def test_read_problem_file_and_solve():
    p = linkage.lcp.read(os.path.join(SRCDIR, "tests", "data", "lcp", "friction.yaml"))
    assert p["name"] == "one sliding contact"
    assert p["M"].shape == (3, 3) and list(p["findex"]) == [-1, 0, 0]
    z, w, r = linkage.lcp.solve(**p)
    assert np.allclose(z, [4 / 3, -2 / 3, 0], atol=1e-9)
    assert np.allclose(w, [0, 2, 0], atol=1e-9)


def test_read_siconos_fc3d():
    f = os.path.join(SRCDIR, "tests", "data", "lcp", "siconos-fc",
                     "Confeti-ex13-4contact-Fc3D-SBM.dat")
    p = linkage.lcp.read(f)
    assert p["contacts"] == 4 and p["dim"] == 3 and p["M"].shape == (12, 12)
    z, w, r = linkage.lcp.solve(**p, solver="nsgs", tol=1e-8)
    assert r["ok"] and r["error"] <= 1e-8


def test_read_errors(tmp_path):
    with pytest.raises(linkage.Error) as e:
        linkage.lcp.read(os.path.join(SRCDIR, "tests", "data", "lcp", "bad_syntax.yaml"))
    assert e.value.line > 0 and e.value.path.endswith("bad_syntax.yaml")
    with pytest.raises(linkage.Error) as e:
        linkage.lcp.read(tmp_path / "missing.yaml")
    assert e.value.status == "LK_IO_ERROR"
