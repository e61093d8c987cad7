#!/bin/sh
# The documentation's commands and snippets, run as a reader would run them.
#
# Every fenced code block of README.md and docs/*.md says what it is in its
# info string, and is checked accordingly:
#   sh         run as a script (set -e) in a scratch directory that has the
#              source tree's mechanisms/, tests/, docs/ and quickstart and
#              the build tree as build/, with linkage and the demos on PATH;
#              it must exit 0
#   sh exit=N  the same, expected to exit with status N
#   sh needs=PROG  run as `sh` when PROG is installed (mpirun), else
#              counted as skipped; the scratch folder is shared by the
#              blocks of one file, in order, so a block may use what an
#              earlier one wrote
#   sh build   the build instructions: not run here (./quickstart and CI run
#              them); every ../configure option they name must be one that
#              `configure --help` lists, and every `make TARGET` a target
#              the build tree's Makefile has
#   sh norun   not run: the test suite itself (./quickstart test) or a
#              system install; only the commands listed in NORUN below
#   c          compiled against the build tree (headers and library), then
#              run in the scratch directory; it must exit 0
#   python     run by the configured Python with the build tree's package
#              (python/site) in the scratch directory; it must exit 0;
#              skipped when configure found no Python with NumPy
#   yaml       a complete mechanism file: `linkage check` must accept it
#   yaml fragment  part of one (a section shown alone): not checked
#   text output  what the sh block just before it prints: its lines must
#              appear in that output in order, each run of lines between
#              `...` lines as consecutive lines (trailing blanks aside); a
#              line `...` stands for any number of lines
#   text, csv, console, math   shown, not run
# A block without an info string fails: say what it is.
set -u
top_src=${LK_TOP_SRCDIR:?}
top_build=${LK_TOP_BUILDDIR:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lk-doctest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# Nothing a reader runs may write into the checkout (issue 33: the README's
# commands left 25 files in the repository root): every block runs in the
# scratch folder, yet mechanisms/, tests/ and docs/ there are links into the
# source tree. Files of the source tree newer than this stamp at the end
# (the build tree and .git aside: blocks build and run there by design) are
# failures.
touch "$tmp/stamp"
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

NORUN='./quickstart test
sudo make install'

# Extract every fenced block: blocks/N.body, and one line per block in
# blocks/index: N<TAB>FILE:LINE<TAB>INFO.
mkdir -p "$tmp/blocks"
for f in "$top_src/README.md" "$top_src"/docs/*.md; do
  rel=${f#"$top_src"/}
  awk -v rel="$rel" -v dir="$tmp/blocks" -v start="$(ls "$tmp/blocks" | grep -c body)" '
    BEGIN { n = start; inb = 0 }
    /^[ ]*```/ {
      if (!inb) {
        inb = 1; info = $0; sub(/^[ ]*```[ ]*/, "", info); n++
        body = dir "/" n ".body"; printf "" > body
        printf "%d\t%s:%d\t%s\n", n, rel, NR, info >> (dir "/index")
        next
      } else { inb = 0; close(body); next }
    }
    inb { print >> body }
  ' "$f"
done

# Indented code blocks (four spaces after a paragraph that is not a list
# item) carry no info string, so nothing would check them: they fail too.
for f in "$top_src/README.md" "$top_src"/docs/*.md; do
  rel=${f#"$top_src"/}
  awk -v rel="$rel" '
    /^[ ]*```/ { fence = !fence; next }
    fence { next }
    /^[ \t]*$/ { blank = 1; next }
    /^    / && blank && !inlist { printf "%s:%d\n", rel, NR; blank = 0; next }
    { blank = 0
      if ($0 ~ /^([-*+]|[0-9]+\.)[ ]/) inlist = 1
      else if ($0 !~ /^[ ]/) inlist = 0 }
  ' "$f"
done >"$tmp/indented"
while read -r where; do
  bad "$where: an indented code block: fence it with an info string (sh, c, yaml, text, ...)"
done <"$tmp/indented"

scratch="$tmp/scratch"
mkdir -p "$scratch"
for d in mechanisms tests docs; do ln -s "$top_src/$d" "$scratch/$d"; done
# ./quickstart works from its own folder: what it looks at there (the
# generated configure, configure.ac) comes from the source tree, and
# BUILD_DIR points it at this build, which is up to date.
for f in quickstart configure configure.ac; do ln -s "$top_src/$f" "$scratch/$f"; done
ln -s "$top_build" "$scratch/build"
PATH="$top_build/tools:$top_build/demos:$PATH"
export PATH
# Open MPI refuses to start as root unless told (CI runs as root): the
# documented mpirun blocks say how themselves, so nothing is exported here.
unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

run_sh() { # N WHERE EXPECTED
  ( cd "$scratch" && BUILD_DIR="$top_build" sh -e "$tmp/blocks/$1.body" ) </dev/null \
    >"$tmp/out" 2>"$tmp/err"
  rc=$?
  cp "$tmp/out" "$tmp/sh_out"
  last_sh=$1
  cat "$tmp/err" >>"$tmp/out"
  if [ "$rc" -eq "$3" ]; then ok
  else bad "$2: shell block exited $rc, expected $3:"; sed 's/^/    /' "$tmp/blocks/$1.body"
       echo "  output:"; tail -n 20 "$tmp/out" | sed 's/^/    /'; fi
}

check_build() { # N WHERE
  help=$("$top_src/configure" --help 2>/dev/null)
  for opt in $(grep -o -- '--[a-z][a-z-]*' "$tmp/blocks/$1.body" | sort -u); do
    if printf '%s\n' "$help" | grep -q -- "$opt"; then ok
    else bad "$2: configure option $opt is not in 'configure --help'"; fi
  done
  for target in $(sed -n 's/^[ ]*make[ ]\{1,\}\([a-z][a-z-]*\).*/\1/p' "$tmp/blocks/$1.body" | sort -u); do
    if ${MAKE:-make} -C "$top_build" -n "$target" >/dev/null 2>&1; then ok
    else bad "$2: 'make $target' is not a target of the build"; fi
  done
}

# The documented output of the last sh block (text output): every run of
# expected lines between `...` lines found, in order, as consecutive lines.
check_output() { # N WHERE
  if [ "${last_sh:-}" != "$(($1 - 1))" ]; then
    bad "$2: 'text output' must follow the sh block whose output it shows"; return
  fi
  if awk -v want="$tmp/blocks/$1.body" '
      function strip(x) { sub(/[ \t\r]+$/, "", x); return x }
      BEGIN { nw = 0
              while ((getline line < want) > 0) w[++nw] = strip(line) }
      { o[++no] = strip($0) }
      END {
        i = 1; at = 1
        while (i <= nw) {
          if (w[i] ~ /^[ ]*\.\.\.$/) { i++; continue }
          j = i; while (j <= nw && w[j] !~ /^[ ]*\.\.\.$/) j++   # the run is w[i..j-1]
          found = 0
          for (k = at; k + (j - i) - 1 <= no && !found; k++) {
            m = 1
            for (r = 0; r < j - i && m; r++) if (o[k + r] != w[i + r]) m = 0
            if (m) { found = 1; at = k + (j - i) }
          }
          if (!found) { print "    not found in order: " w[i]; exit 1 }
          i = j
        }
      }' "$tmp/sh_out" >"$tmp/cmp"; then ok
  else bad "$2: the documented output is not what the command printed:"; cat "$tmp/cmp"
       echo "  printed:"; head -n 30 "$tmp/sh_out" | sed 's/^/    /'; fi
}

run_c() { # N WHERE
  exe="$tmp/c$1"
  if ${CC:-cc} -std=c11 ${LK_SAN_CFLAGS:-} -I"$top_src/include" -I"$top_build" -x c \
       "$tmp/blocks/$1.body" -o "$exe" -L"$top_build/lib/.libs" -llinkage -lm \
       ${LK_SAN_LDFLAGS:-} >"$tmp/out" 2>&1; then :
  else bad "$2: C block does not compile:"; sed 's/^/    /' "$tmp/out"; return; fi
  if ( cd "$scratch" && LD_LIBRARY_PATH="$top_build/lib/.libs" "$exe" ) </dev/null >"$tmp/out" 2>&1; then ok
  else bad "$2: C block ran and failed:"; tail -n 20 "$tmp/out" | sed 's/^/    /'; fi
}

run_python() { # N WHERE
  pre=
  if [ -n "${LK_SAN_CFLAGS:-}" ]; then # the extension carries ASan: preload it
    pre="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
  fi
  if ( cd "$scratch" && PYTHONPATH="$top_build/python/site" LD_PRELOAD="$pre" \
       ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
       "$LK_PYTHON" "$tmp/blocks/$1.body" ) </dev/null >"$tmp/out" 2>&1; then ok
  else bad "$2: Python block failed:"; tail -n 20 "$tmp/out" | sed 's/^/    /'; fi
}

nblocks=0
nrun=0
while IFS="$(printf '\t')" read -r n where info; do
  nblocks=$((nblocks + 1))
  case "$info" in
    "sh") run_sh "$n" "$where" 0; nrun=$((nrun + 1)) ;;
    "sh exit="*) run_sh "$n" "$where" "${info#sh exit=}"; nrun=$((nrun + 1)) ;;
    "sh needs="*)
      # Open MPI keeps what MPI_Init allocates past MPI_Finalize: not ours,
      # so no leak check of its blocks in the sanitizer build (as
      # tests/grasp/test_planner's own runs under mpirun).
      if command -v "${info#sh needs=}" >/dev/null 2>&1; then
        if [ "${info#sh needs=}" = mpirun ]; then
          asan_saved=${ASAN_OPTIONS-}
          ASAN_OPTIONS="${asan_saved:+$asan_saved:}detect_leaks=0"
          export ASAN_OPTIONS
          run_sh "$n" "$where" 0
          ASAN_OPTIONS=$asan_saved
        else
          run_sh "$n" "$where" 0
        fi
        nrun=$((nrun + 1))
      else echo "doctest: $where skipped: ${info#sh needs=} is not installed"; fi ;;
    "sh build") check_build "$n" "$where" ;;
    "sh norun")
      while IFS= read -r line; do
        case "$line" in ""|"#"*) continue ;; esac
        cmd=$(printf '%s' "$line" | sed 's/[ ]*#.*$//; s/[ ]*$//')
        if printf '%s\n' "$NORUN" | grep -qxF -- "$cmd"; then ok
        else bad "$where: '$cmd' is marked norun but is not a command that cannot run here"; fi
      done <"$tmp/blocks/$n.body" ;;
    "c") run_c "$n" "$where"; nrun=$((nrun + 1)) ;;
    "python")
      if [ "${LK_HAVE_PYTHON:-no}" = yes ]; then run_python "$n" "$where"; nrun=$((nrun + 1))
      else echo "doctest: $where skipped: no Python package in this build"; fi ;;
    "yaml")
      cp "$tmp/blocks/$n.body" "$scratch/doc_block_$n.yaml"
      if (cd "$scratch" && linkage check "doc_block_$n.yaml") </dev/null >"$tmp/out" 2>&1; then ok
      else bad "$where: YAML mechanism rejected by 'linkage check' (a part of one is 'yaml fragment'):"
           sed 's/^/    /' "$tmp/out"; fi
      nrun=$((nrun + 1)) ;;
    "text output") check_output "$n" "$where" ;;
    "yaml fragment"|text|csv|console|math) ;;
    "") bad "$where: a code block without an info string (say sh, c, yaml, text, ...)" ;;
    *) bad "$where: unknown code block info string '$info'" ;;
  esac
done <"$tmp/blocks/index"
src_real=$(cd "$top_src" && pwd -P)
build_real=$(cd "$top_build" && pwd -P)
# Other build trees in the checkout (a second build dir, a sanitizer one,
# make distcheck's) are builds running beside this one, not the docs'.
( cd "$src_real" && find . \( -path ./.git -o -path "./${build_real#"$src_real"/}" \) -prune \
    -o -newer "$tmp/stamp" ! -type d -print ) >"$tmp/written.all"
: >"$tmp/builds"
for d in "$src_real"/*/; do
  [ -f "$d/config.status" ] && printf '^\./%s/\n' "$(basename "$d")" >>"$tmp/builds"
done
grep -v -f "$tmp/builds" "$tmp/written.all" >"$tmp/written" || :
if [ ! -s "$tmp/builds" ]; then cp "$tmp/written.all" "$tmp/written"; fi
if [ -s "$tmp/written" ]; then
  bad "the documented commands wrote into the source tree $src_real:"; sed 's/^/    /' "$tmp/written"
else ok; fi
echo "doctest: $nblocks blocks, $nrun run or checked by a program"
echo "lk-result: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
