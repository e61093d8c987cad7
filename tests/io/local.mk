check_PROGRAMS += tests/io/test_io
TESTS += tests/io/test_io
tests_io_test_io_SOURCES = %reldir%/test_io.c
tests_io_test_io_CFLAGS = $(LK_TESTFLAGS) $(YAML_CFLAGS)
tests_io_test_io_LDADD = $(LK_TESTLIBS)

check_PROGRAMS += tests/io/test_outputs
TESTS += tests/io/test_outputs
tests_io_test_outputs_SOURCES = %reldir%/test_outputs.c
tests_io_test_outputs_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_outputs_LDADD = $(LK_TESTLIBS)

check_PROGRAMS += tests/io/test_columns
TESTS += tests/io/test_columns
tests_io_test_columns_SOURCES = %reldir%/test_columns.c
tests_io_test_columns_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_columns_LDADD = $(LK_TESTLIBS)

check_PROGRAMS += tests/io/test_urdf
TESTS += tests/io/test_urdf
tests_io_test_urdf_SOURCES = %reldir%/test_urdf.c
tests_io_test_urdf_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_urdf_LDADD = $(LK_TESTLIBS)

check_PROGRAMS += tests/io/test_view
TESTS += tests/io/test_view
tests_io_test_view_SOURCES = %reldir%/test_view.c
tests_io_test_view_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_view_LDADD = $(LK_TESTLIBS)

check_PROGRAMS += tests/io/test_plot
TESTS += tests/io/test_plot
tests_io_test_plot_SOURCES = %reldir%/test_plot.c
tests_io_test_plot_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_plot_LDADD = $(LK_TESTLIBS)

# URDF vs MuJoCo reading the same file (only when MuJoCo is installed).
if HAVE_MUJOCO
check_PROGRAMS += tests/io/test_urdf_mujoco
TESTS += tests/io/test_urdf_mujoco
tests_io_test_urdf_mujoco_SOURCES = %reldir%/test_urdf_mujoco.c
tests_io_test_urdf_mujoco_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_urdf_mujoco_LDADD = $(LK_TESTLIBS) $(MUJOCO_LIBS)
endif
# The MJCF reader on what Menagerie's files hold (issue 29); against
# MuJoCo's poses when it is installed.
check_PROGRAMS += tests/io/test_mjcf
TESTS += tests/io/test_mjcf
tests_io_test_mjcf_SOURCES = %reldir%/test_mjcf.c
tests_io_test_mjcf_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_mjcf_LDADD = $(LK_TESTLIBS)
if HAVE_MUJOCO
tests_io_test_mjcf_LDADD += $(MUJOCO_LIBS)
endif
# MJCF <equality>, <tendon>, <contact><pair>, mesh inertia, <sensor> and
# <keyframe> round trips (issue 29) on fixtures of tests/data/mjcf.
check_PROGRAMS += tests/io/test_mjcf_equality
TESTS += tests/io/test_mjcf_equality
tests_io_test_mjcf_equality_SOURCES = %reldir%/test_mjcf_equality.c
tests_io_test_mjcf_equality_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_mjcf_equality_LDADD = $(LK_TESTLIBS)
if HAVE_MUJOCO
tests_io_test_mjcf_equality_LDADD += $(MUJOCO_LIBS)
endif
if HAVE_MUJOCO
check_PROGRAMS += tests/io/test_mjcf_mujoco
TESTS += tests/io/test_mjcf_mujoco
tests_io_test_mjcf_mujoco_SOURCES = %reldir%/test_mjcf_mujoco.c
tests_io_test_mjcf_mujoco_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_mjcf_mujoco_LDADD = $(LK_TESTLIBS) $(MUJOCO_LIBS)
endif

# Absurd but valid inputs and the loader's limits (issue 18, items 8, 9,
# 12, 13, 16).
check_PROGRAMS += tests/io/test_limits
TESTS += tests/io/test_limits
tests_io_test_limits_SOURCES = %reldir%/test_limits.c
tests_io_test_limits_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_limits_LDADD = $(LK_TESTLIBS)

# test_units: angle: degree, degree-looking radians, initial penetration (issue 14.8).
check_PROGRAMS += tests/io/test_units
TESTS += tests/io/test_units
tests_io_test_units_SOURCES = %reldir%/test_units.c
tests_io_test_units_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_units_LDADD = $(LK_TESTLIBS)

# Physical plausibility (issue 18.9): parameters the step cannot resolve
# refused or warned about, unphysical steps reported; runs tools/linkage.
check_PROGRAMS += tests/io/test_plausibility
TESTS += tests/io/test_plausibility
tests_io_test_plausibility_SOURCES = %reldir%/test_plausibility.c
tests_io_test_plausibility_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_plausibility_LDADD = $(LK_TESTLIBS)

# Issue 30: one number reader, XML entities and sniffing, referenced FIFOs,
# outputs that would replace an input, huge initial positions.
check_PROGRAMS += tests/io/test_inputs
TESTS += tests/io/test_inputs
tests_io_test_inputs_SOURCES = %reldir%/test_inputs.c
tests_io_test_inputs_CFLAGS = $(LK_TESTFLAGS)
tests_io_test_inputs_LDADD = $(LK_TESTLIBS)
