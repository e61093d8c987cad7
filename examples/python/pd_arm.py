#!/usr/bin/env python3
"""A PD controller with gravity compensation on the 7-DoF arm, in Python.

The arm file's own position servos are switched off (an override, as
`linkage simulate --set` does); each step the controller reads q and v
and writes tau through NumPy views of the simulation's memory (no
copies), tau = c(q, v) + Kp (q* - q) - Kd v, and steps. It records the
run and writes the viewer page and a plot of the joint angles.

    PYTHONPATH=build/python/site python3 examples/python/pd_arm.py [--out DIR]
"""

import argparse
import os

import numpy as np

import linkage

HERE = os.path.dirname(os.path.abspath(__file__))
ARM = os.path.join(HERE, "..", "..", "mechanisms", "arm7.yaml")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=".", help="directory for arm.html and arm.svg")
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    # the file's servos hold the arm; here Python does: their gains to zero
    servos_off = {"actuators.j%d.kp" % k: 0 for k in range(1, 8)}
    servos_off.update({"actuators.j%d.kv" % k: 0 for k in range(1, 8)})
    model = linkage.load(ARM, overrides=servos_off)
    data = model.data()
    goal = np.array([0.5, 0.7, 0.0, -1.4, 0.0, 0.7, 0.0])
    kp = np.array([600, 800, 400, 400, 100, 80, 20.0])
    kd = np.array([40, 60, 30, 30, 8, 6, 2.0])
    q, v, tau = data.q, data.v, data.tau  # views of the data's memory
    rec = linkage.Recorder(model, fps=30)
    for _ in range(int(round(args.seconds / model.timestep))):
        tau[:] = data.bias_forces() + kp * (goal - q) - kd * v
        data.step()
        rec.add(data)
    err = np.abs(goal - q).max()
    print("t = %.3f s: largest joint error %.2e rad, joint speeds below %.2e rad/s"
          % (data.time, err, np.abs(v).max()))
    rec.write_view(os.path.join(args.out, "arm.html"))
    rec.write_plot(os.path.join(args.out, "arm.svg"), ["j1.q", "j2.q", "j4.q", "j6.q"],
                   title="PD control from Python")
    print("wrote %s and %s (%d frames)" % (os.path.join(args.out, "arm.html"),
                                          os.path.join(args.out, "arm.svg"), rec.nframes))


if __name__ == "__main__":
    main()
