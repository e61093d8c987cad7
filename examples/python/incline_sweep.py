#!/usr/bin/env python3
"""A friction sweep on the incline: for which static friction does the
block hold on a 20 degree slope?

Coulomb's law says: it holds exactly when mu_static >= tan(20 deg) =
0.364. This sweeps mu from 0.30 to 0.44 (static and dynamic alike, so
that the threshold is the static cone's alone: a block that starts
sliding with mu_dynamic below the slope never stops), simulates half a
second each, and reports the threshold it finds: the block either does
not move at all (static friction, no creep) or slides.
With matplotlib installed it also plots the distance slid against
mu_static (incline_sweep.png, or the path given with --plot).

    PYTHONPATH=build/python/site python3 examples/python/incline_sweep.py
"""

import argparse
import math
import os

import numpy as np

import linkage

HERE = os.path.dirname(os.path.abspath(__file__))
INCLINE = os.path.join(HERE, "..", "..", "mechanisms", "block_on_incline.yaml")


def slid(mu_static, seconds=0.5):
    model = linkage.load(INCLINE, overrides={"materials.wood.mu_static": mu_static,
                                             "materials.wood.mu_dynamic": mu_static})
    data = model.data()
    start = data.q[:3].copy()
    data.step(int(round(seconds / model.timestep)))
    return float(np.linalg.norm(data.q[:3] - start))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plot", default="incline_sweep.png", help="where the plot goes")
    args = ap.parse_args()
    mus = np.round(np.arange(0.30, 0.445, 0.01), 2)
    dist = np.array([slid(mu) for mu in mus])
    holds = dist < 1e-6
    for mu, d in zip(mus, dist):
        print("mu_static %.2f: %s (%.6f m)" % (mu, "holds" if d < 1e-6 else "slides", d))
    lo, hi = mus[~holds].max(), mus[holds].min()
    print("threshold between %.2f and %.2f; tan(20 deg) = %.4f" % (lo, hi,
                                                                  math.tan(math.radians(20))))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (Debian: apt-get install python3-matplotlib)")
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(mus, dist, "o-")
    ax.axvline(math.tan(math.radians(20)), color="gray", ls="--", label="tan 20°")
    ax.set_xlabel("mu (static = dynamic)")
    ax.set_ylabel("distance slid in 0.5 s (m)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.plot)
    print("plot: %s" % args.plot)


if __name__ == "__main__":
    main()
