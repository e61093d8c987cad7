#!/bin/sh
# Run the libFuzzer targets for a fixed number of iterations each, with a
# fixed seed, from seed files of the source tree:
#   load  the mechanism loader on the example mechanisms and the broken-file
#         corpus (LK_FUZZ_RUNS, default 50000);
#   xml   the same loader on URDF and MJCF seeds with tests/fuzz/xml.dict
#         (LK_FUZZ_RUNS_XML, default 20000);
#   mesh  STL and OBJ files through lk_mesh_load_file (LK_FUZZ_RUNS_MESH,
#         default 100: each run writes a file that assimp parses);
#   lcp   Siconos .dat and YAML LCP and friction-contact problems, read and
#         solved by a few NSGS sweeps (LK_FUZZ_RUNS_LCP, default 20000).
# Any finding fails the test and leaves the input as tests/fuzz/crash-* (or
# leak-*, timeout-*) to reproduce with:
#   LK_FUZZ_TARGET=TARGET tests/fuzz/fuzz_load FILE
set -u
fuzz=tests/fuzz/fuzz_load
top=${LK_TOP_SRCDIR:-.}
data=${LK_TEST_DATA:-tests/data}
tmp=tests/fuzz/corpus.tmp
log=tests/fuzz/fuzz.out
rm -rf "$tmp"
mkdir -p "$tmp/load" "$tmp/xml" "$tmp/xmlseed" "$tmp/mesh" "$tmp/meshseed" "$tmp/lcp"
: >"$log"
# XML seeds: the URDF and MJCF files of the tree.
for f in "$top"/mechanisms/*.urdf "$data"/io/*.urdf "$data"/io/*.xml "$data"/mjcf/*.xml; do
  [ -f "$f" ] && cp "$f" "$tmp/xmlseed/"
done
# Mesh seeds: the first byte picks .stl (0) or .obj (1), the second a scale.
for f in "$top"/mechanisms/meshes/*.stl "$data"/io/*.stl; do
  [ -f "$f" ] && { printf '\000\000'; cat "$f"; } >"$tmp/meshseed/$(basename "$f")"
done
for f in "$top"/mechanisms/meshes/*.obj "$data"/io/*.obj; do
  [ -f "$f" ] && { printf '\001\000'; cat "$f"; } >"$tmp/meshseed/$(basename "$f")"
done
rc=0
failed=
# New inputs go to the first directory only, so the source tree (read-only
# under distcheck) is never written to.
run() { # target runs max_len dict dirs...
  target=$1 runs=$2 len=$3 dict=$4
  shift 4
  echo "== $target: $runs runs" >>"$log"
  LK_FUZZ_TARGET=$target "$fuzz" -runs="$runs" -seed=1 -max_len="$len" -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix=tests/fuzz/ -print_final_stats=1 $dict \
    "$@" >>"$log" 2>&1
  r=$?
  if [ "$r" -ne 0 ]; then rc=$r; failed="$failed $target"; fi
}
run load "${LK_FUZZ_RUNS:-50000}" 4096 "" "$tmp/load" "$top/mechanisms" "$data/io"
run xml "${LK_FUZZ_RUNS_XML:-20000}" 4096 "-dict=$top/tests/fuzz/xml.dict" "$tmp/xml" "$tmp/xmlseed"
# assimp leaks on some malformed files (lsan.supp); the project's leaks
# still count. Small inputs: each run writes a file that assimp parses.
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top/tests/fuzz/lsan.supp \
  run mesh "${LK_FUZZ_RUNS_MESH:-100}" 2048 "" "$tmp/mesh" "$tmp/meshseed"
run lcp "${LK_FUZZ_RUNS_LCP:-20000}" 8192 "" "$tmp/lcp" "$data/lcp" "$data/lcp/siconos" "$data/lcp/siconos-fc"
rm -rf "$tmp"
grep -E '^(== |stat::number_of_executed_units|Done |#[0-9]+ +DONE)' "$log"
if [ "$rc" -eq 0 ]; then
  echo "lk-result: 1 passed, 0 failed"
else
  echo "failed:$failed"
  tail -n 60 "$log"
  echo "lk-result: 0 passed, 1 failed"
fi
exit "$rc"
