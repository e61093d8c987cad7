"""Linear complementarity problems over NumPy arrays (docs/lcp.md).

    z, w, report = linkage.lcp.solve(M, q)            # standard LCP
    linkage.lcp.solve(M, q, lo=lo, hi=hi)             # boxed / mixed
    linkage.lcp.solve(M, q, findex=f, mu=mu, cone=c)  # friction rows
    problem = linkage.lcp.read("fc3d.hdf5.dat"); linkage.lcp.solve(**problem)

M may be a dense (n, n) array or, where SciPy is installed, any
scipy.sparse matrix (taken by compressed rows; Lemke and Dantzig densify
nothing themselves: use NSGS or Newton for large sparse problems).
"""

import collections

import numpy as _np

from . import _linkage

__all__ = ["solve", "read", "Result", "SOLVERS"]

SOLVERS = ("lemke", "dantzig", "nsgs", "newton")

Result = collections.namedtuple("Result", "z w report")
Result.__doc__ = """z, w = M z + q, and report: a dict (status, ok, solver,
pivots, residual, residual_rel, sweeps, error, restarts, fallback,
ray_certified, regularized, warm, detail)."""


def _csr(M):
    """(indptr, indices, data) of a SciPy sparse matrix, or None."""
    if not hasattr(M, "tocsr") or not hasattr(M, "nnz"):
        return None
    A = M.tocsr()
    if A.shape[0] != A.shape[1]:
        raise ValueError("M is %d x %d, expected a square matrix" % A.shape)
    A = A.copy()
    A.sum_duplicates()
    A.sort_indices()
    return (A.indptr.astype(_np.intc), A.indices.astype(_np.intc),
            A.data.astype(_np.float64))


def solve(M, q, solver="lemke", lo=None, hi=None, findex=None, mu=None, cone=None,
          tol=0.0, max_pivots=0, max_sweeps=0, z_guess=None, check=True, **ignored):
    """Solve w = M z + q, lo <= z <= hi with complementarity (docs/lcp.md).

    solver: "lemke" (any M), "dantzig" (symmetric PSD), "nsgs", "newton".
    findex/mu/cone: friction-index rows (ODE's findex) and circle cones.
    check: raise linkage.Error when the solver did not succeed (the result
    still carries the report); False: return it whatever the status.
    Wrong shapes raise ValueError, non-numeric arrays TypeError, a problem
    the library refuses (non-finite data, bad bounds) linkage.Error.
    """
    csr = _csr(M)
    z, w, report = _linkage.lcp_solve(csr if csr is not None else M, q, solver, lo, hi,
                                      findex, mu, cone, float(tol), int(max_pivots),
                                      int(max_sweeps), z_guess)
    if check and not report["ok"]:
        err = _linkage.Error("error: %s solve failed: %s (%s)"
                             % (solver, report["status"], report["detail"]))
        err.status, err.path, err.line, err.column = report["status"], None, 0, 0
        err.message = report["detail"]
        err.result = Result(z, w, report)
        raise err
    return Result(z, w, report)


def read(path):
    """A problem file (Siconos' .dat, or the YAML form of docs/lcp.md) as a
    dict of solve()'s arguments (M dense, q, lo, hi, findex, mu, cone) plus
    name, contacts and dim. Errors raise linkage.Error with the file's
    line and column."""
    return _linkage.lcp_read(path)
