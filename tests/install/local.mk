# tests/install: `make install` with an install-time prefix and with
# DESTDIR, then a program built against the installed library through
# pkg-config (run_install.sh).
TESTS += %reldir%/run_install.sh
EXTRA_DIST += %reldir%/run_install.sh
