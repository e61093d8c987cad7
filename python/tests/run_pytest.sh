#!/bin/sh
# The Python package's pytest suite (python/tests), with the package as
# the build tree stages it (python/site). Without a Python 3 with headers,
# NumPy and pytest the suite is skipped, saying why. Under
# --enable-sanitizers the extension carries AddressSanitizer, so the
# interpreter (not built with it) runs with libasan preloaded; leak
# detection is off there because CPython keeps its interned objects to the
# end (the leak tests measure with tracemalloc and refcounts instead).
set -u
top_build=${LK_TOP_BUILDDIR:?}
top_src=${LK_TOP_SRCDIR:?}
skip() {
  echo "SKIP: $*"
  echo "lk-result: 0 passed, 0 failed"
  exit 77
}
[ "${LK_HAVE_PYTHON:-no}" = yes ] ||
  skip "no Python 3 with its headers and NumPy was found by configure (Debian: apt-get install python3-dev python3-numpy python3-pytest)"
[ "${LK_HAVE_PYTEST:-no}" = yes ] ||
  skip "pytest is not installed for ${LK_PYTHON} (Debian: apt-get install python3-pytest)"
PYTHONPATH="$top_build/python/site"
export PYTHONPATH
PYTHONDONTWRITEBYTECODE=1
export PYTHONDONTWRITEBYTECODE
if [ -n "${LK_SAN_CFLAGS:-}" ]; then
  asan=$(${CC:-cc} -print-file-name=libasan.so)
  ubsan=$(${CC:-cc} -print-file-name=libubsan.so)
  [ -f "$asan" ] || skip "sanitizer build, but libasan.so was not found to preload into the interpreter"
  LD_PRELOAD="$asan${ubsan:+ $ubsan}"
  ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export LD_PRELOAD ASAN_OPTIONS
  LK_SANITIZED=1
  export LK_SANITIZED
fi
cd "$top_build" || exit 1
exec "$LK_PYTHON" -m pytest -q -p no:cacheprovider "$top_src/python/tests"
