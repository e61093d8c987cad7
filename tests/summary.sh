#!/bin/sh
# Sum the per-program CUnit results into one line "N passed, N failed".
# Each test program ends its log with "lk-result: P passed, F failed"; a
# program that died before printing it (crash, sanitizer report) counts as one
# failure, named here so nobody mistakes silence for success.
passed=0
failed=0
for log in "$@"; do
  line=$(grep -E '^lk-result: [0-9]+ passed, [0-9]+ failed$' "$log" 2>/dev/null | tail -n 1)
  if [ -z "$line" ]; then
    echo "summary: $log has no result line (crashed or did not run)" >&2
    failed=$((failed + 1))
    continue
  fi
  p=$(echo "$line" | sed -E 's/^lk-result: ([0-9]+) passed, ([0-9]+) failed$/\1/')
  f=$(echo "$line" | sed -E 's/^lk-result: ([0-9]+) passed, ([0-9]+) failed$/\2/')
  passed=$((passed + p))
  failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
