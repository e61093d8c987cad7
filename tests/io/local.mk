check_PROGRAMS += tests/io/test_io
TESTS += tests/io/test_io
tests_io_test_io_SOURCES = %reldir%/test_io.c
tests_io_test_io_CFLAGS = $(LK_TESTFLAGS) $(YAML_CFLAGS)
tests_io_test_io_LDADD = $(LK_TESTLIBS)
