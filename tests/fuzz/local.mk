# The libFuzzer targets, built with clang when it is available and each run
# for a fixed number of iterations by 'make check': the mechanism loader
# (YAML; URDF and MJCF with xml.dict), the mesh reader and the LCP and
# friction-contact problem readers, in one binary whose target
# $LK_FUZZ_TARGET picks (fuzz.h). It compiles the library's sources itself
# (with -fsanitize=fuzzer,address,undefined), once, so it does not depend
# on how the library is configured.
LK_FUZZ_SRC = %reldir%/fuzz_load.c %reldir%/fuzz_mesh.c %reldir%/fuzz_lcp.c
EXTRA_DIST += $(LK_FUZZ_SRC) %reldir%/fuzz.h %reldir%/xml.dict %reldir%/lsan.supp %reldir%/run_fuzz.sh
if HAVE_CLANG
LK_FUZZ_LIBSRC = $(addprefix $(srcdir)/,$(filter %.c %.S,$(lib_liblinkage_la_SOURCES)))
tests/fuzz/fuzz_load$(EXEEXT): $(addprefix $(srcdir)/,$(LK_FUZZ_SRC)) $(srcdir)/%reldir%/fuzz.h $(LK_FUZZ_LIBSRC)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=undefined -D_GNU_SOURCE -I$(top_builddir) -I$(srcdir)/include \
	  -I$(srcdir)/lib $(lib_liblinkage_la_CCASFLAGS) $(GSL_CFLAGS) $(YAML_CFLAGS) $(QHULL_CFLAGS) $(XML_CFLAGS) $(ASSIMP_CFLAGS) $(CHOLMOD_CFLAGS) -o $@ \
	  $(addprefix $(srcdir)/,$(LK_FUZZ_SRC)) $(LK_FUZZ_LIBSRC) $(GSL_LIBS) $(YAML_LIBS) $(QHULL_LIBS) $(XML_LIBS) $(ASSIMP_LIBS) $(KLU_LIBS) $(CHOLMOD_LIBS) $(LIBM) $(PTHREAD_LIBS)
check_SCRIPTS = tests/fuzz/fuzz_load$(EXEEXT)
TESTS += %reldir%/run_fuzz.sh
CLEANFILES += tests/fuzz/fuzz_load$(EXEEXT) tests/fuzz/fuzz.out
endif
