#!/usr/bin/env python3
"""What the Python binding costs: the arm stepped from C (a loop of
lk_step, python/tests/step_c --time), from Python one step a call
(data.step() in a Python loop) and n steps a call (data.step(n)), by
turns, with the medians and the ratios to C; then two threads stepping
two datas of one model against one thread doing both.

    make -C build python/tests/step_c
    PYTHONPATH=build/python/site python3 bench/python.py [--build build] [--steps 20000]
    PYTHONPATH=build/python/site python3 bench/python.py --instructions

--instructions counts instructions under valgrind's callgrind instead of
timing: the same three ways, each run at 200 and 1200 steps, the
difference over 1000 steps being what a step costs whatever else the
machine is doing (start-up and loading cancel out).

Figures, not tests: make check does not run this.
"""

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

import linkage

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, ".."))


def c_ns(prog, path, n):
    out = subprocess.run([prog, path, str(n), "--time"], capture_output=True, text=True,
                         check=True).stdout
    return float(out.strip())


def py_loop_ns(model, n):
    d = model.data()
    step = d.step
    t0 = time.perf_counter_ns()
    for _ in range(n):
        step()
    return (time.perf_counter_ns() - t0) / n


def py_n_ns(model, n):
    d = model.data()
    t0 = time.perf_counter_ns()
    d.step(n)
    return (time.perf_counter_ns() - t0) / n


def threads_s(model, n, nthreads):
    """Wall time of stepping two datas n steps each, and the process's CPU
    time over it (above the wall time only when both ran at once)."""
    datas = [model.data() for _ in range(2)]
    c0 = time.process_time()
    t0 = time.perf_counter()
    if nthreads == 1:
        for d in datas:
            d.step(n)
    else:
        ts = [threading.Thread(target=d.step, args=(n,)) for d in datas]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    return time.perf_counter() - t0, time.process_time() - c0


def instructions(cmd, env):
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                         capture_output=True, text=True, env=env)
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    raise SystemExit("callgrind failed on %s: %s" % (cmd, out.stderr[-500:]))


def per_step_instructions(args):
    env = dict(os.environ)
    libs = os.path.join(args.build, "lib", ".libs")
    env["LD_LIBRARY_PATH"] = libs + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    prog = os.path.join(args.build, "python", "tests", ".libs", "step_c")
    if not os.path.exists(prog):  # not a libtool wrapper
        prog = os.path.join(args.build, "python", "tests", "step_c")
    loop = ("import linkage, sys; d = linkage.load(sys.argv[1]).data(); s = d.step\n"
            "for _ in range(int(sys.argv[2])): s()")
    batch = "import linkage, sys; linkage.load(sys.argv[1]).data().step(int(sys.argv[2]))"
    ways = [("C loop of lk_step", lambda k: [prog, args.model, str(k)]),
            ("Python data.step() a call", lambda k: [sys.executable, "-c", loop, args.model, str(k)]),
            ("Python data.step(n)", lambda k: [sys.executable, "-c", batch, args.model, str(k)])]
    print("%s: instructions a step (callgrind, (I(1200) - I(200)) / 1000)"
          % os.path.basename(args.model))
    base = None
    for name, cmd in ways:
        per = (instructions(cmd(1200), env) - instructions(cmd(200), env)) / 1000.0
        base = base or per
        print("  %-26s %9.0f  %.3fx C" % (name, per, per / base))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--model", default=os.path.join(TOP, "mechanisms", "arm7.yaml"))
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--turns", type=int, default=7)
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions a step under callgrind instead of timing")
    args = ap.parse_args()
    if args.instructions:
        per_step_instructions(args)
        return
    prog = os.path.join(args.build, "python", "tests", "step_c")
    if not os.path.exists(prog):
        raise SystemExit("no %s: make -C %s python/tests/step_c" % (prog, args.build))
    model = linkage.load(args.model)
    c, loop, n = [], [], []
    for _ in range(args.turns):  # by turns, so that load drifts hit all three alike
        c.append(c_ns(prog, args.model, args.steps))
        loop.append(py_loop_ns(model, args.steps))
        n.append(py_n_ns(model, args.steps))
    mc, ml, mn = statistics.median(c), statistics.median(loop), statistics.median(n)
    print("%s, %d steps, %d turns (medians)" % (os.path.basename(args.model), args.steps,
                                                 args.turns))
    print("  C loop of lk_step          %8.0f ns/step" % mc)
    print("  Python data.step() a call  %8.0f ns/step  %.3fx C" % (ml, ml / mc))
    print("  Python data.step(n)        %8.0f ns/step  %.3fx C" % (mn, mn / mc))
    one, two = [], []
    for _ in range(max(3, args.turns // 2)):
        one.append(threads_s(model, args.steps, 1))
        two.append(threads_s(model, args.steps, 2))
    m1 = statistics.median(w for w, _ in one)
    m2 = statistics.median(w for w, _ in two)
    cpu2 = statistics.median(c / w for w, c in two)
    print("  two datas, one thread %.3f s, two threads %.3f s: %.2fx; CPU/wall with two "
          "threads %.2f (cores: %d, load average %.1f)"
          % (m1, m2, m1 / m2, cpu2, os.cpu_count(), os.getloadavg()[0]))


if __name__ == "__main__":
    main()
