#!/usr/bin/env python3
"""A grasp plan on a YCB object: the jaw gripper on the mustard bottle.

The object is the YCB mustard bottle's collision mesh as PyBullet's
ycb_objects publish it (shared/data/robots/ycb, beside the source tree;
0.603 kg as its URDF says). The planner draws candidate palm poses
around it, screens them analytically (force closure, Ferrari-Canny
epsilon), runs the best as dynamic trials (close, let go, lift, shake)
and ranks them; the rows are the same for any number of jobs.

    PYTHONPATH=build/python/site python3 examples/python/grasp_ycb.py [-n 200] [--jobs 2]
"""

import argparse
import os
import sys

import linkage

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
HAND = os.path.join(TOP, "mechanisms", "jaw_gripper.yaml")
YCB = os.path.join(TOP, "..", "shared", "data", "robots", "ycb", "ycb_objects",
                   "YcbMustardBottle", "collision_vhacd.obj")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=200, help="candidates screened")
    ap.add_argument("--verify", type=int, default=4, help="best candidates run as trials")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--object", default=YCB, help="a mesh file (STL, OBJ) or an object file")
    ap.add_argument("--mass", type=float, default=0.603, help="the mesh object's mass, kg")
    args = ap.parse_args()
    if not os.path.exists(args.object):
        print("no %s: the YCB objects come with shared/data beside the source tree"
              % args.object)
        return 77
    rows = linkage.grasp.plan(HAND, args.object, n=args.n, verify=args.verify, jobs=args.jobs,
                              mesh_mass=args.mass)
    closed = (rows["screen"] == "closed").sum()
    print("%d candidates screened: %d in force closure; %d verified, %d held"
          % (len(rows), closed, rows["verified"].sum(), rows["held"].sum()))
    print("rank candidate screen      epsilon  trial     slip (mm)")
    for r in rows[:args.verify + 2]:
        print("%4d %9d %-10s %8.4f  %-9s %s" % (
            r["rank"], r["candidate"], r["screen"], r["epsilon"],
            r["outcome"] or "-",
            "%.2f" % (1000 * r["slip_translation"]) if r["verified"] else "-"))
    best = rows[0]
    print("best: candidate %d, palm at %s, quaternion %s" % (
        best["candidate"], best["position"].round(4), best["quaternion"].round(4)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
