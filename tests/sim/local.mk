check_PROGRAMS += tests/sim/test_applied
TESTS += tests/sim/test_applied
tests_sim_test_applied_SOURCES = %reldir%/test_applied.c
tests_sim_test_applied_CFLAGS = $(LK_TESTFLAGS)
tests_sim_test_applied_LDADD = $(LK_TESTLIBS)
