# tests/tools: the linkage program, run as a user would.
check_PROGRAMS += tests/tools/test_cli
TESTS += tests/tools/test_cli
tests_tools_test_cli_SOURCES = %reldir%/test_cli.c
tests_tools_test_cli_CFLAGS = $(LK_TESTFLAGS) $(YAML_CFLAGS)
tests_tools_test_cli_LDADD = $(LK_TESTLIBS)
