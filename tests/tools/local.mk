# tests/tools: the linkage program, run as a separate process.
check_PROGRAMS += tests/tools/test_cli
TESTS += tests/tools/test_cli
tests_tools_test_cli_SOURCES = %reldir%/test_cli.c
tests_tools_test_cli_CFLAGS = $(LK_TESTFLAGS)
tests_tools_test_cli_LDADD = $(LK_TESTLIBS)
