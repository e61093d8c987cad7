# Demos: small programs that use only the public API.
noinst_PROGRAMS += demos/pendulum
demos_pendulum_SOURCES = %reldir%/pendulum.c
demos_pendulum_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
demos_pendulum_LDADD = $(LK_PROGLIBS)
# demos/grasp-planner: samples hand poses around an object, runs grasp
# trials in parallel (pthreads) and ranks them (linkage/grasp.h).
noinst_PROGRAMS += demos/grasp-planner
demos_grasp_planner_SOURCES = %reldir%/grasp-planner.c
demos_grasp_planner_LDADD = $(LK_PROGLIBS) $(PTHREAD_LIBS)
