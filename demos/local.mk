# Demos: small programs that use only the public API.
noinst_PROGRAMS += demos/pendulum
demos_pendulum_SOURCES = %reldir%/pendulum.c
demos_pendulum_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
demos_pendulum_LDADD = $(LK_PROGLIBS)
