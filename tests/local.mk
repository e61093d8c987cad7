# Tests: one CUnit program per area (tests/<area>/local.mk); each links the
# shared harness, which ends its output with "lk-result: P passed, F failed".
if HAVE_CUNIT
check_LTLIBRARIES += tests/harness/libharness.la
tests_harness_libharness_la_SOURCES = tests/harness/harness.c tests/harness/harness.h \
	tests/harness/proc.c tests/harness/proc.h
tests_harness_libharness_la_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)

if HAVE_MPI
LK_MPIRUN_FOR_TESTS = $(MPIRUN)
endif
LK_TESTFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(GSL_CFLAGS) -I$(top_srcdir)/tests/harness
LK_TESTLIBS = tests/harness/libharness.la lib/liblinkage.la $(CUNIT_LIBS) $(GSL_LIBS) $(YAML_LIBS) $(QHULL_LIBS) $(XML_LIBS) $(ASSIMP_LIBS) $(KLU_LIBS) $(CHOLMOD_LIBS) $(LIBM) $(PTHREAD_LIBS)

AM_TESTS_ENVIRONMENT = \
	LK_TEST_DATA='$(abs_top_srcdir)/tests/data'; export LK_TEST_DATA; \
	LK_TOP_SRCDIR='$(abs_top_srcdir)'; export LK_TOP_SRCDIR; \
	LK_TOP_BUILDDIR='$(abs_top_builddir)'; export LK_TOP_BUILDDIR; \
	LK_SAN_CFLAGS='$(SAN_CFLAGS)'; export LK_SAN_CFLAGS; \
	LK_SAN_LDFLAGS='$(SAN_LDFLAGS)'; export LK_SAN_LDFLAGS; \
	CC='$(CC)'; export CC; MAKE='$(MAKE)'; export MAKE; \
	LK_MPIRUN='$(LK_MPIRUN_FOR_TESTS)'; export LK_MPIRUN;

include tests/core/local.mk
include tests/math/local.mk
include tests/model/local.mk
include tests/dynamics/local.mk
include tests/lcp/local.mk
include tests/collision/local.mk
include tests/constraint/local.mk
include tests/sim/local.mk
include tests/models/local.mk
include tests/io/local.mk
include tests/grasp/local.mk
include tests/tools/local.mk
include tests/install/local.mk
include tests/docs/local.mk
include tests/bench/local.mk
endif
include tests/fuzz/local.mk
EXTRA_DIST += tests/data
