# tests/grasp: the grasp analysis (test_analysis), grasp trials in
# simulation (test_trial) and the grasp planner demo (test_planner).
check_PROGRAMS += tests/grasp/test_analysis
TESTS += tests/grasp/test_analysis
tests_grasp_test_analysis_SOURCES = %reldir%/test_analysis.c
tests_grasp_test_analysis_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_analysis_LDADD = $(LK_TESTLIBS)

check_PROGRAMS += tests/grasp/test_trial
TESTS += tests/grasp/test_trial
tests_grasp_test_trial_SOURCES = %reldir%/test_trial.c
tests_grasp_test_trial_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_trial_LDADD = $(LK_TESTLIBS)

# Runs demos/grasp-planner (built by 'make all', which 'make check' runs).
check_PROGRAMS += tests/grasp/test_planner
TESTS += tests/grasp/test_planner
tests_grasp_test_planner_SOURCES = %reldir%/test_planner.c
tests_grasp_test_planner_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_planner_LDADD = $(LK_TESTLIBS)

check_PROGRAMS += tests/grasp/test_screen
TESTS += tests/grasp/test_screen
tests_grasp_test_screen_SOURCES = %reldir%/test_screen.c
tests_grasp_test_screen_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_screen_LDADD = $(LK_TESTLIBS)

# Mesh files as grasp objects (issue 15); runs demos/grasp-planner too.
check_PROGRAMS += tests/grasp/test_mesh_objects
TESTS += tests/grasp/test_mesh_objects
tests_grasp_test_mesh_objects_SOURCES = %reldir%/test_mesh_objects.c
tests_grasp_test_mesh_objects_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_mesh_objects_LDADD = $(LK_TESTLIBS)

# A URDF hand with <mimic>-coupled jaws (issue 15); runs demos/grasp-planner.
check_PROGRAMS += tests/grasp/test_mimic
TESTS += tests/grasp/test_mimic
tests_grasp_test_mimic_SOURCES = %reldir%/test_mimic.c %reldir%/scene_fixture.h
tests_grasp_test_mimic_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_mimic_LDADD = $(LK_TESTLIBS)

# The palm and approach of a hand (issue 32).
check_PROGRAMS += tests/grasp/test_palm
TESTS += tests/grasp/test_palm
tests_grasp_test_palm_SOURCES = %reldir%/test_palm.c %reldir%/scene_fixture.h
tests_grasp_test_palm_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_palm_LDADD = $(LK_TESTLIBS)

# The closing direction of each finger joint (issue 32): a hand closing
# towards q = 0 (Menagerie's Panda hand); runs demos/grasp-planner.
check_PROGRAMS += tests/grasp/test_closing
TESTS += tests/grasp/test_closing
tests_grasp_test_closing_SOURCES = %reldir%/test_closing.c %reldir%/scene_fixture.h
tests_grasp_test_closing_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_closing_LDADD = $(LK_TESTLIBS)

# Fingers closed by kinematic loops (issue 32): a four-bar jaw written with
# MJCF <connect>, Menagerie's 2F-85; runs demos/grasp-planner.
check_PROGRAMS += tests/grasp/test_loops
TESTS += tests/grasp/test_loops
tests_grasp_test_loops_SOURCES = %reldir%/test_loops.c %reldir%/scene_fixture.h
tests_grasp_test_loops_CFLAGS = $(LK_TESTFLAGS)
tests_grasp_test_loops_LDADD = $(LK_TESTLIBS)
