# tests/docs: every command and snippet of README.md and docs/ run or
# compiled as a reader would (run_doctest.sh says how each kind is checked).
TESTS += %reldir%/run_doctest.sh
EXTRA_DIST += %reldir%/run_doctest.sh
