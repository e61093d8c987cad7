# tests/tools: the linkage program, run as a user would: test_cli for
# 'linkage lcp', test_mechanism_cli for simulate, check and info.
check_PROGRAMS += tests/tools/test_cli
TESTS += tests/tools/test_cli
tests_tools_test_cli_SOURCES = %reldir%/test_cli.c
tests_tools_test_cli_CFLAGS = $(LK_TESTFLAGS) $(YAML_CFLAGS)
tests_tools_test_cli_LDADD = $(LK_TESTLIBS)

check_PROGRAMS += tests/tools/test_mechanism_cli
TESTS += tests/tools/test_mechanism_cli
tests_tools_test_mechanism_cli_SOURCES = %reldir%/test_mechanism_cli.c
tests_tools_test_mechanism_cli_CFLAGS = $(LK_TESTFLAGS)
tests_tools_test_mechanism_cli_LDADD = $(LK_TESTLIBS)

# Outputs under failure (issue 18): devices, FIFOs, a full disk (/dev/full
# and RLIMIT_FSIZE), signals, modes and links, stdout of every command;
# runs demos/grasp-planner too (built by 'make all').
check_PROGRAMS += tests/tools/test_outputs_cli
TESTS += tests/tools/test_outputs_cli
tests_tools_test_outputs_cli_SOURCES = %reldir%/test_outputs_cli.c
tests_tools_test_outputs_cli_CFLAGS = $(LK_TESTFLAGS)
tests_tools_test_outputs_cli_LDADD = $(LK_TESTLIBS)

# The viewer page in headless Chromium (skipped without it); libpng reads
# the screenshots.
if HAVE_PNG
check_PROGRAMS += tests/tools/test_viewer
TESTS += tests/tools/test_viewer
tests_tools_test_viewer_SOURCES = %reldir%/test_viewer.c
tests_tools_test_viewer_CFLAGS = $(LK_TESTFLAGS) $(PNG_CFLAGS)
tests_tools_test_viewer_LDADD = $(LK_TESTLIBS) $(PNG_LIBS)
endif
CLEANFILES += tests/tools/viewer-gripper.png
# test_step_cli: the step's messages through the program (rk4, units, servos).
check_PROGRAMS += tests/tools/test_step_cli
TESTS += tests/tools/test_step_cli
tests_tools_test_step_cli_SOURCES = %reldir%/test_step_cli.c
tests_tools_test_step_cli_CFLAGS = $(LK_TESTFLAGS)
tests_tools_test_step_cli_LDADD = $(LK_TESTLIBS)

# Issue 30: outputs never replace inputs (every command, every name), FIFO
# objects, view of a --partial trajectory, linkage lcp's messages and status.
check_PROGRAMS += tests/tools/test_inputs_cli
TESTS += tests/tools/test_inputs_cli
tests_tools_test_inputs_cli_SOURCES = %reldir%/test_inputs_cli.c
tests_tools_test_inputs_cli_CFLAGS = $(LK_TESTFLAGS)
tests_tools_test_inputs_cli_LDADD = $(LK_TESTLIBS)
# Mesh files drawn as their triangles in headless Chromium (skipped, 77,
# without it); the Robotiq 2F-85 from ../shared/data/robots when there.
check_PROGRAMS += tests/tools/test_viewer_meshes
TESTS += tests/tools/test_viewer_meshes
tests_tools_test_viewer_meshes_SOURCES = %reldir%/test_viewer_meshes.c
tests_tools_test_viewer_meshes_CFLAGS = $(LK_TESTFLAGS)
tests_tools_test_viewer_meshes_LDADD = $(LK_TESTLIBS)
