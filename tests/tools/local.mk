# tests/tools: the linkage program, run as a separate process.
check_PROGRAMS += tests/tools/test_mechanism_cli
TESTS += tests/tools/test_mechanism_cli
tests_tools_test_mechanism_cli_SOURCES = %reldir%/test_mechanism_cli.c
tests_tools_test_mechanism_cli_CFLAGS = $(LK_TESTFLAGS)
tests_tools_test_mechanism_cli_LDADD = $(LK_TESTLIBS)
