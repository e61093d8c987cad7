# bench: programs that print figures (not tests). bench/lcp compares with
# Siconos numerics' Lemke when configure found it.
noinst_PROGRAMS += bench/lcp
bench_lcp_SOURCES = %reldir%/lcp.c tests/lcp/lcp_gen.c tests/lcp/lcp_gen.h
bench_lcp_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/lcp
bench_lcp_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
bench_lcp_LDADD = $(LK_PROGLIBS)
if HAVE_SICONOS
bench_lcp_CPPFLAGS += $(SICONOS_CFLAGS)
bench_lcp_LDADD += $(SICONOS_LIBS)
endif
