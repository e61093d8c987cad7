check_PROGRAMS += tests/statics/test_static
TESTS += tests/statics/test_static
tests_statics_test_static_SOURCES = %reldir%/test_static.c
tests_statics_test_static_CFLAGS = $(LK_TESTFLAGS)
tests_statics_test_static_LDADD = $(LK_TESTLIBS)
