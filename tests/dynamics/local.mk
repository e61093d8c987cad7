# tests/dynamics: the rigid-body algorithms (test_dynamics) and the
# contact-free time step against closed-form physics (test_step).
check_PROGRAMS += tests/dynamics/test_dynamics tests/dynamics/test_step
TESTS += tests/dynamics/test_dynamics tests/dynamics/test_step
tests_dynamics_test_dynamics_SOURCES = %reldir%/test_dynamics.c %reldir%/mech.c %reldir%/mech.h
tests_dynamics_test_dynamics_CFLAGS = $(LK_TESTFLAGS)
tests_dynamics_test_dynamics_LDADD = $(LK_TESTLIBS)
tests_dynamics_test_step_SOURCES = %reldir%/test_step.c %reldir%/mech.c %reldir%/mech.h
tests_dynamics_test_step_CFLAGS = $(LK_TESTFLAGS)
tests_dynamics_test_step_LDADD = $(LK_TESTLIBS)
# test_blocks: the mass matrix stored per tree (memory, accessors, range
# solves), with the library's internal headers.
check_PROGRAMS += tests/dynamics/test_blocks
TESTS += tests/dynamics/test_blocks
tests_dynamics_test_blocks_SOURCES = %reldir%/test_blocks.c %reldir%/mech.c %reldir%/mech.h
tests_dynamics_test_blocks_CFLAGS = $(LK_TESTFLAGS)
tests_dynamics_test_blocks_LDADD = $(LK_TESTLIBS)
