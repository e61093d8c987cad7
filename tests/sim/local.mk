check_PROGRAMS += tests/sim/test_applied tests/sim/test_contact
TESTS += tests/sim/test_applied tests/sim/test_contact
tests_sim_test_applied_SOURCES = %reldir%/test_applied.c
tests_sim_test_applied_CFLAGS = $(LK_TESTFLAGS)
tests_sim_test_applied_LDADD = $(LK_TESTLIBS)
tests_sim_test_contact_SOURCES = %reldir%/test_contact.c %reldir%/scenes.c %reldir%/scenes.h
tests_sim_test_contact_CFLAGS = $(LK_TESTFLAGS)
tests_sim_test_contact_LDADD = $(LK_TESTLIBS)
