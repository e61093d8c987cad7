"""Grasp analysis on arrays of contacts (docs/grasp.md).

Contacts are k points (k x 3) with their normals pointing INTO the object
(k x 3), a friction coefficient mu (one number or k) and, for soft
fingers, a torsion coefficient (m; one number or k). Torques are about
center (default the origin); the grasp wrench space divides them by
torque_scale (0: the largest distance from center to a contact).
"""

import os

import numpy as _np

from . import _linkage

__all__ = ["matrix", "force_closure", "quality", "epsilon", "volume", "Scene", "plan",
           "plan_dtype"]

Scene = _linkage.GraspScene

plan_dtype = _np.dtype([("object", "U256"), ("rank", "i4"), ("candidate", "i4"),
                        ("screen", "U12"), ("force_closure", "i4"), ("epsilon", "f8"),
                        ("verified", "?"), ("outcome", "U20"), ("held", "?"),
                        ("slip_translation", "f8"), ("slip_rotation", "f8"),
                        ("peak_utilization", "f8"), ("min_force", "f8"),
                        ("position", "(3,)f8"), ("quaternion", "(4,)f8")])


def matrix(points, normals, mu=0.0, torsion=0.0, center=None):
    """The grasp matrix G (6 x 3k, plus a column per soft contact): the
    wrench (force, torque about center) of a unit force along n, t1, t2 at
    each contact (and a unit moment about n)."""
    return _linkage.grasp_matrix(points, normals, mu, torsion, center)


def force_closure(points, normals, mu=0.0, torsion=0.0, center=None, torque_scale=0.0,
                  edges=0):
    """dict(closed, reason, rank, margin, unresisted, detail): whether the
    linearized cones (edges generators a contact; 0: 8) positively span
    every wrench."""
    return _linkage.grasp_closure(points, normals, mu, torsion, center, torque_scale, edges)


def quality(points, normals, mu=0.0, torsion=0.0, center=None, torque_scale=0.0, edges=0):
    """dict(epsilon, volume, force_closure, rank, nwrenches, nfacets,
    torque_scale): Ferrari-Canny epsilon and volume of the L1 grasp wrench
    space."""
    return _linkage.grasp_quality(points, normals, mu, torsion, center, torque_scale, edges)


def epsilon(*args, **kw):
    """quality(...)["epsilon"]"""
    return quality(*args, **kw)["epsilon"]


def volume(*args, **kw):
    """quality(...)["volume"]"""
    return quality(*args, **kw)["volume"]


def _is_mesh(path):
    return os.path.splitext(str(path))[1].lower() in (".stl", ".obj", ".ply", ".off", ".dae")


def plan(hand, objects, n=200, jobs=1, verify=4, seed=1, sample="auto", mesh_mass=0.1,
         mesh_scale=1.0, as_dicts=False, palm=None, approach=(0.0, 0.0, 0.0)):
    """Rank grasps of a hand on one or more objects, as the grasp-planner
    program does (docs/grasp.md): n candidate palm poses drawn around each
    object and screened analytically (Scene.screen), the best `verify` by
    screening run as dynamic trials (Scene.trial: close, let go, lift,
    shake). Rows, per object: the verified candidates first (held ones
    before the others, then by the larger epsilon, then by the smaller
    slip, then candidate order), then the others (closed before the rest,
    by epsilon, by candidate order). An object given as a mesh file (STL,
    OBJ, ...) weighs mesh_mass kg at mesh_scale. palm and approach say
    which link is the palm and along which direction of its frame the
    fingers reach (docs/grasp.md, "The hand"; default: the root link, -z).

    Returns a structured array of plan_dtype (as_dicts: a list of dicts).
    The rows are the same for any number of jobs (threads).
    """
    if isinstance(objects, (str, bytes, os.PathLike)):
        objects = [objects]
    rows = []
    for obj in objects:
        mesh = _is_mesh(obj)
        scene = Scene(hand, obj, mesh_mass=mesh_mass if mesh else 0.0,
                      mesh_scale=mesh_scale if mesh else 1.0, palm=palm, approach=approach)
        s = scene.screen(int(n), jobs=jobs, seed=seed, sample=sample)
        closed = s["outcome"] == "closed"
        order = sorted(range(len(s)), key=lambda i: (not closed[i], -s["epsilon"][i], i))
        top = order[:max(0, int(verify))]
        trials = scene.trial(_np.hstack([s["position"][top], s["quaternion"][top]])
                             .reshape(len(top), 7), jobs=jobs)
        radius = scene.object_radius
        tr = {i: trials[k] for k, i in enumerate(top)}

        def key(i):
            if i in tr:
                t = tr[i]
                slip = t["slip_translation"] + radius * t["slip_rotation"]
                return (0, not t["held"], -s["epsilon"][i], slip, i)
            return (1, not closed[i], -s["epsilon"][i], 0.0, i)

        for rank, i in enumerate(sorted(range(len(s)), key=key)):
            t = tr.get(i)
            rows.append((str(obj), rank, i, s["outcome"][i], s["force_closure"][i],
                         s["epsilon"][i], t is not None, t["outcome"] if t is not None else "",
                         bool(t["held"]) if t is not None else False,
                         t["slip_translation"] if t is not None else _np.nan,
                         t["slip_rotation"] if t is not None else _np.nan,
                         t["peak_utilization"] if t is not None else _np.nan,
                         t["min_force"] if t is not None else _np.nan,
                         s["position"][i], s["quaternion"][i]))
    out = _np.array(rows, dtype=plan_dtype)
    if as_dicts:
        return [{k: (r[k].tolist() if hasattr(r[k], "tolist") else r[k])
                 for k in plan_dtype.names} for r in out]
    return out
