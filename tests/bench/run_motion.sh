#!/bin/sh
# Smoke test of bench/motion (issue 35): --short runs each scene for 20 ms
# through every engine; it must finish (exit 0) and print each scene's
# table. No timing is judged. Scenes whose files are absent (../shared not
# beside the clone) print "skipped" with the reason.
set -u
out=tests/bench/motion.out
mkdir -p tests/bench
bench/motion --short >"$out" 2>&1
rc=$?
cat "$out"
fail=0
[ "$rc" -eq 0 ] || { echo "bench/motion --short: exit $rc"; fail=1; }
for s in heap50_box heap50_capsule spheres100 humanoid chain20 chain50; do
  grep -q "^$s: " "$out" || { echo "no line for $s"; fail=1; }
done
grep -q "^spheres100: 20 steps" "$out" || { echo "spheres100 did not run 20 steps"; fail=1; }
grep -q "^  linkage " "$out" || { echo "no linkage row"; fail=1; }
if [ "$fail" -eq 0 ]; then
  echo "lk-result: 1 passed, 0 failed"
else
  echo "lk-result: 0 passed, 1 failed"
fi
exit "$fail"
