# bench/motion's smoke test (its --short mode; no timing judged).
TESTS += %reldir%/run_motion.sh
EXTRA_DIST += %reldir%/run_motion.sh
CLEANFILES += tests/bench/motion.out
# bench/robots over ../shared/data/robots when it is there (issue 29).
TESTS += %reldir%/run_robots.sh
EXTRA_DIST += %reldir%/run_robots.sh
CLEANFILES += tests/bench/robots.out tests/bench/cassie.csv
