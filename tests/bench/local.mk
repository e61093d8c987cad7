# bench/motion's smoke test (its --short mode; no timing judged).
TESTS += %reldir%/run_motion.sh
EXTRA_DIST += %reldir%/run_motion.sh
CLEANFILES += tests/bench/motion.out
