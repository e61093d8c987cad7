#!/bin/sh
# `make install` as users do it, three times: with GNU's install-time
# prefix (make install prefix=DIR), staged (DESTDIR=ROOT with a
# configured-style prefix), and from a second build configured with
# --prefix=DIR (./configure --prefix=DIR && make install, in a scratch
# folder, with the build tree's configure options less the static library,
# Python and the comparison peers, which it does not install or test). Each time the installed linkage.pc must name the prefix the
# files went to (never the configure-time one, never DESTDIR), a program
# compiled and linked with `pkg-config --cflags --libs linkage` against the
# installed headers and library must load a mechanism and step it, and the
# installed docs' relative links must all resolve, and the installed
# linkage and grasp-planner must run without LD_LIBRARY_PATH.
set -u
top_build=${LK_TOP_BUILDDIR:?}
top_src=${LK_TOP_SRCDIR:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lk-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

cat >"$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <linkage/linkage.h>
int main(int argc, char **argv) {
  lk_error err;
  lk_model *m = lk_model_load_file(argv[1], NULL, &err);
  if (!m) { fprintf(stderr, "%s\n", err.message); return 1; }
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 100; i++)
    if (lk_step(m, d) != LK_OK) return 1;
  printf("%.3f\n", lk_data_time(d));
  lk_data_free(d);
  lk_model_free(m);
  return argc > 1 ? 0 : 1;
}
PROG

# check_install ROOT PREFIX: files under ROOT$PREFIX, linkage.pc saying PREFIX.
check_install() {
  root=$1 prefix=$2 label=$3
  pc="$root$prefix/lib/pkgconfig/linkage.pc"
  if [ ! -f "$pc" ]; then bad "$label: no $pc"; return; fi
  if grep -qx "prefix=$prefix" "$pc"; then ok "$label: linkage.pc says prefix=$prefix"
  else bad "$label: linkage.pc says $(grep '^prefix=' "$pc"), expected prefix=$prefix"; fi
  # pkg-config relocated into the staging root for DESTDIR installs, as
  # packagers do with PKG_CONFIG_SYSROOT_DIR.
  flags=$(PKG_CONFIG_PATH="$root$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root" \
          pkg-config --cflags --libs linkage) || { bad "$label: pkg-config failed"; return; }
  if ${CC:-cc} ${LK_SAN_CFLAGS:-} -o "$tmp/prog" "$tmp/prog.c" $flags ${LK_SAN_LDFLAGS:-} \
       >"$tmp/cc.log" 2>&1; then ok "$label: a program compiles and links with pkg-config"
  else bad "$label: compiling with '$flags' failed:"; cat "$tmp/cc.log"; return; fi
  out=$(LD_LIBRARY_PATH="$root$prefix/lib" "$tmp/prog" "$top_src/mechanisms/pendulum.yaml" 2>&1)
  if [ "$out" = "0.100" ]; then ok "$label: it loads and steps a mechanism"
  else bad "$label: the program printed '$out'"; fi
  docdir="$root$prefix/share/doc/linkage"
  missing=""
  for f in "$docdir"/*.md; do
    for link in $(grep -o '](\([A-Za-z0-9_.-]*\.md\)' "$f" | sed 's/^](//'); do
      [ -f "$docdir/$link" ] || missing="$missing $(basename "$f")->$link"
    done
  done
  if [ -z "$missing" ]; then ok "$label: every relative link between the installed docs resolves"
  else bad "$label: installed docs link to files not installed:$missing"; fi
  for doc in format.md contact.md architecture.md lcp.md contact-models.md grasp.md control.md; do
    [ -f "$docdir/$doc" ] || bad "$label: $doc not installed"
  done
  # The installed programs run as installed, with no help from the
  # environment (issue 33: no RUNPATH made `make install prefix=DIR`'s
  # linkage fail to find liblinkage.so.0).
  bin="$root$prefix/bin"
  mech="$root$prefix/share/linkage/mechanisms"
  out=$(env -u LD_LIBRARY_PATH "$bin/linkage" simulate "$mech/pendulum.yaml" -d 0.1 -o - -q 2>&1 | tail -n 1)
  case $out in
    0.1*) ok "$label: the installed linkage runs without LD_LIBRARY_PATH" ;;
    *) bad "$label: the installed linkage printed '$out'" ;;
  esac
  if env -u LD_LIBRARY_PATH "$bin/grasp-planner" --help 2>&1 | grep -q '^usage: grasp-planner'; then
    ok "$label: the installed grasp-planner runs without LD_LIBRARY_PATH"
  else bad "$label: the installed grasp-planner does not run:"
       env -u LD_LIBRARY_PATH "$bin/grasp-planner" --help 2>&1 | head -n 3; fi
  for man in man1/linkage.1 man1/grasp-planner.1; do
    [ -f "$root$prefix/share/man/$man" ] || bad "$label: $man not installed"
  done
}

if ${MAKE:-make} -C "$top_build" install prefix="$tmp/gnu" >"$tmp/make1.log" 2>&1; then
  check_install "" "$tmp/gnu" "make install prefix=DIR"
else
  bad "make install prefix=DIR failed"; tail -n 30 "$tmp/make1.log"
fi
if ${MAKE:-make} -C "$top_build" install prefix=/opt/lk-test DESTDIR="$tmp/stage" \
     >"$tmp/make2.log" 2>&1; then
  check_install "$tmp/stage" "/opt/lk-test" "make install DESTDIR=ROOT prefix=/opt/lk-test"
else
  bad "make install DESTDIR=ROOT failed"; tail -n 30 "$tmp/make2.log"
fi
# The configure-time prefix (issue 33: the form that always worked, tested
# so that it stays so): a VPATH build of its own, so minutes of compiling;
# make's job server, when make check shares it, keeps it within -j.
# (less --srcdir: make distcheck configures with a relative ../.., which
# means nothing from the scratch folder; configure finds its own.)
cfgargs=$(cd "$top_build" && ./config.status --config | sed -e "s/'--srcdir=[^']*'//g" -e 's/--srcdir=[^ ]*//g')
mkdir -p "$tmp/cfgbuild"
if ( cd "$tmp/cfgbuild" &&
     eval "\"\$top_src/configure\" $cfgargs --disable-static --without-python --without-peers \
           --prefix=\"\$tmp/cfg\"" ) >"$tmp/configure.log" 2>&1; then
  if ${MAKE:-make} -C "$tmp/cfgbuild" install >"$tmp/make3.log" 2>&1; then
    check_install "" "$tmp/cfg" "./configure --prefix=DIR && make install"
  else
    bad "./configure --prefix=DIR: make install failed"; tail -n 30 "$tmp/make3.log"
  fi
else
  bad "./configure --prefix=DIR failed"; tail -n 30 "$tmp/configure.log"
fi
# The build tree's linkage.pc is made again for the configured prefix, so
# an install test never leaves a stale file behind.
${MAKE:-make} -C "$top_build" linkage.pc >/dev/null 2>&1
echo "lk-result: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
