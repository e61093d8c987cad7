# tests/docs: every command and snippet of README.md and docs/ run or
# compiled as a reader would (run_doctest.sh says how each kind is checked);
# the man page against --help and format.md's keys against the reader
# (run_reference.sh).
TESTS += %reldir%/run_doctest.sh %reldir%/run_reference.sh
EXTRA_DIST += %reldir%/run_doctest.sh %reldir%/run_reference.sh
