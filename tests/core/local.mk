check_PROGRAMS += tests/core/test_core
TESTS += tests/core/test_core
tests_core_test_core_SOURCES = %reldir%/test_core.c
tests_core_test_core_CFLAGS = $(LK_TESTFLAGS)
tests_core_test_core_LDADD = $(LK_TESTLIBS)
