# python/: the `linkage` Python package (docs/python.md): the C extension
# _linkage (Python's and NumPy's C APIs over the public headers) and the
# pure-Python modules beside it, installed together into the interpreter's
# site directory under the prefix (PYTHON_SITEDIR, from configure).
LK_PY_MODULES = %reldir%/linkage/__init__.py %reldir%/linkage/lcp.py %reldir%/linkage/grasp.py
LK_PY_TESTS = %reldir%/tests/conftest.py %reldir%/tests/run_pytest.sh \
	%reldir%/tests/test_model.py %reldir%/tests/test_data.py %reldir%/tests/test_contacts.py \
	%reldir%/tests/test_lcp.py %reldir%/tests/test_grasp.py %reldir%/tests/test_memory.py \
	%reldir%/tests/test_install.py %reldir%/tests/test_examples.py %reldir%/tests/step_c.c \
	%reldir%/tests/test_record.py
# The extension's sources too, for a tarball made where Python is absent.
EXTRA_DIST += $(LK_PY_MODULES) $(LK_PY_TESTS) %reldir%/pylk.h %reldir%/module.c \
	%reldir%/model.c %reldir%/data.c %reldir%/records.c %reldir%/record.c %reldir%/lcp.c \
	%reldir%/grasp.c %reldir%/grasp_scene.c \
	examples/python/pd_arm.py examples/python/incline_sweep.py examples/python/grasp_ycb.py \
	bench/python.py

if HAVE_PYTHON
lkpyextdir = $(PYTHON_SITEDIR)/linkage
lkpyext_LTLIBRARIES = %reldir%/_linkage.la
%canon_reldir%__linkage_la_SOURCES = %reldir%/pylk.h %reldir%/module.c %reldir%/model.c \
	%reldir%/data.c %reldir%/records.c %reldir%/record.c %reldir%/lcp.c %reldir%/grasp.c \
	%reldir%/grasp_scene.c
# Python's headers alias through casts (its own build uses the same flag).
%canon_reldir%__linkage_la_CFLAGS = $(AM_CFLAGS) $(PYTHON_CFLAGS) -fno-strict-aliasing
# Installed, it finds liblinkage.so with PYTHONPATH alone (issue 34): the
# site directory is $(libdir)/pythonX.Y/{site,dist}-packages by default, so
# the library is three folders above the module ($ORIGIN/../../..), also
# after `make install prefix=DIR`; then the configured libdir, for a
# PYTHON_SITEDIR set elsewhere. LD_LIBRARY_PATH still comes first (RUNPATH).
%canon_reldir%__linkage_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-export-symbols-regex '^PyInit__linkage$$' \
	-Wl,-rpath,'$$ORIGIN/../../..' -Wl,-rpath,$(libdir) -Wl,--enable-new-dtags
# liblinkage by the linker's -l, not as a libtool library (nor by a -l that
# libtool sees and resolves to the .la beside it): libtool would relink the
# module at install time and refuse GNU's install-time prefix (make install
# prefix=DIR). Installed, it finds liblinkage.so by its RUNPATH (above) or
# where the loader looks (LK_PY_LIBLINKAGE: configure.ac).
%canon_reldir%__linkage_la_LIBADD = @LK_PY_LIBLINKAGE@ $(PTHREAD_LIBS)
EXTRA_%canon_reldir%__linkage_la_DEPENDENCIES = lib/liblinkage.la
lkpyext_DATA = $(LK_PY_MODULES)

# The package as Python imports it, in the build tree: PYTHONPATH=python/site
# (the tests, the examples and bench/python.py use it). Its module is the
# same objects linked once more with the build tree's library on its run
# path (never installed), so that nothing but PYTHONPATH is needed.
all-local: %reldir%/site/linkage/_linkage.so
%reldir%/site/linkage/_linkage.so: %reldir%/_linkage.la $(LK_PY_MODULES)
	$(AM_V_GEN)$(MKDIR_P) %reldir%/site/linkage && \
	for f in $(LK_PY_MODULES); do cp -f "$(srcdir)/$$f" %reldir%/site/linkage/ || exit 1; done && \
	$(CC) -shared $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) -o $@ \
	  $(patsubst %reldir%/%.lo,%reldir%/.libs/%.o,$(%canon_reldir%__linkage_la_OBJECTS)) \
	  -L$(top_builddir)/lib/.libs -Wl,-rpath,$(abs_top_builddir)/lib/.libs -llinkage \
	  $(PTHREAD_LIBS)

# The C side of the bit-identity test (python/tests/test_data.py).
if HAVE_CUNIT
check_PROGRAMS += %reldir%/tests/step_c
%canon_reldir%_tests_step_c_SOURCES = %reldir%/tests/step_c.c
%canon_reldir%_tests_step_c_LDADD = $(LK_PROGLIBS)
endif
endif

# The installed package directory for an install-time prefix (the install
# test asks: make -s print-python-sitedir prefix=DIR); empty without Python.
print-python-sitedir:
	@echo '$(PYTHON_SITEDIR)'
.PHONY: print-python-sitedir

if HAVE_CUNIT
TESTS += %reldir%/tests/run_pytest.sh
# After tests/install: both run `make install` in this build tree.
# (Through a variable, so that automake keeps its own rule for the log.)
LK_PY_TEST_LOG = %reldir%/tests/run_pytest.sh.log
$(LK_PY_TEST_LOG): tests/install/run_install.sh.log
AM_TESTS_ENVIRONMENT += LK_PYTHON='$(PYTHON)'; export LK_PYTHON; \
	LK_HAVE_PYTHON='$(HAVE_PYTHON_PACKAGE)'; export LK_HAVE_PYTHON; \
	LK_HAVE_PYTEST='$(HAVE_PYTEST)'; export LK_HAVE_PYTEST;
endif
