#!/bin/sh
# Run the loader's libFuzzer target for a fixed number of iterations
# (LK_FUZZ_RUNS, default 50000) with a fixed seed, starting from the example
# mechanisms and the broken-file corpus. Any finding fails the test and
# leaves the input as tests/fuzz/crash-* (or leak-*, timeout-*) to reproduce
# with: tests/fuzz/fuzz_load FILE
set -u
fuzz=tests/fuzz/fuzz_load
work=tests/fuzz/corpus.tmp
log=tests/fuzz/fuzz.out
rm -rf "$work"
mkdir -p "$work"
# New inputs go to the first directory only, so the source tree (read-only
# under distcheck) is never written to.
"$fuzz" -runs="${LK_FUZZ_RUNS:-50000}" -seed=1 -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix=tests/fuzz/ -print_final_stats=1 \
  "$work" "${LK_TOP_SRCDIR:-.}/mechanisms" "${LK_TEST_DATA:-tests/data}/io" >"$log" 2>&1
rc=$?
rm -rf "$work"
grep -E '^(stat::number_of_executed_units|Done )' "$log"
if [ "$rc" -eq 0 ]; then
  echo "lk-result: 1 passed, 0 failed"
else
  tail -n 60 "$log"
  echo "lk-result: 0 passed, 1 failed"
fi
exit "$rc"
