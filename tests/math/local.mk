check_PROGRAMS += tests/math/test_math
TESTS += tests/math/test_math
tests_math_test_math_SOURCES = %reldir%/test_math.c
tests_math_test_math_CFLAGS = $(LK_TESTFLAGS)
tests_math_test_math_LDADD = $(LK_TESTLIBS)
