# tests/lcp: the LCP solvers, files and internals in one program.
check_PROGRAMS += tests/lcp/test_lcp
TESTS += tests/lcp/test_lcp
tests_lcp_test_lcp_SOURCES = \
	%reldir%/test_lcp.c \
	%reldir%/test_lcp_io.c \
	%reldir%/test_nsgs.c \
	%reldir%/test_prod.c \
	%reldir%/test_newton.c \
	%reldir%/lcp_test.h \
	%reldir%/lcp_gen.c \
	%reldir%/lcp_gen.h
tests_lcp_test_lcp_CFLAGS = $(LK_TESTFLAGS)
tests_lcp_test_lcp_LDADD = $(LK_TESTLIBS)
