# tests/collision: the narrow phase pair by pair; scenes (broad phase,
# filtering, persistence, stacking, capacity, determinism).
check_PROGRAMS += tests/collision/test_narrow tests/collision/test_collide
TESTS += tests/collision/test_narrow tests/collision/test_collide
tests_collision_test_narrow_SOURCES = %reldir%/test_narrow.c
tests_collision_test_narrow_CFLAGS = $(LK_TESTFLAGS)
tests_collision_test_narrow_LDADD = $(LK_TESTLIBS)
tests_collision_test_collide_SOURCES = %reldir%/test_collide.c
tests_collision_test_collide_CFLAGS = $(LK_TESTFLAGS)
tests_collision_test_collide_LDADD = $(LK_TESTLIBS)
check_PROGRAMS += tests/collision/test_mesh
TESTS += tests/collision/test_mesh
tests_collision_test_mesh_SOURCES = %reldir%/test_mesh.c mechanisms/meshes/meshgen.c
tests_collision_test_mesh_CFLAGS = $(LK_TESTFLAGS)
tests_collision_test_mesh_LDADD = $(LK_TESTLIBS)
