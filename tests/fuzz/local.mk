# The loader's libFuzzer target, built with clang when it is available and
# run for a fixed number of iterations by 'make check'. It compiles the
# library's sources itself (with -fsanitize=fuzzer,address,undefined), so it
# does not depend on how the library is configured.
EXTRA_DIST += %reldir%/fuzz_load.c %reldir%/run_fuzz.sh
if HAVE_CLANG
LK_FUZZ_LIBSRC = $(addprefix $(srcdir)/,$(filter %.c %.S,$(lib_liblinkage_la_SOURCES)))
tests/fuzz/fuzz_load$(EXEEXT): $(srcdir)/%reldir%/fuzz_load.c $(LK_FUZZ_LIBSRC)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=undefined -D_GNU_SOURCE -I$(top_builddir) -I$(srcdir)/include \
	  -I$(srcdir)/lib $(lib_liblinkage_la_CCASFLAGS) $(GSL_CFLAGS) $(YAML_CFLAGS) $(QHULL_CFLAGS) $(XML_CFLAGS) $(ASSIMP_CFLAGS) $(CHOLMOD_CFLAGS) -o $@ \
	  $(srcdir)/%reldir%/fuzz_load.c $(LK_FUZZ_LIBSRC) $(GSL_LIBS) $(YAML_LIBS) $(QHULL_LIBS) $(XML_LIBS) $(ASSIMP_LIBS) $(KLU_LIBS) $(CHOLMOD_LIBS) $(LIBM) $(PTHREAD_LIBS)
check_SCRIPTS = tests/fuzz/fuzz_load$(EXEEXT)
TESTS += %reldir%/run_fuzz.sh
CLEANFILES += tests/fuzz/fuzz_load$(EXEEXT) tests/fuzz/fuzz.out
endif
