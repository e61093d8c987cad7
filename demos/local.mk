# Demos: small programs that use only the public API.
noinst_PROGRAMS += demos/pendulum
demos_pendulum_SOURCES = %reldir%/pendulum.c
demos_pendulum_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
demos_pendulum_LDADD = $(LK_PROGLIBS)
# demos/grasp-planner: screens, refines and verifies grasps of a hand on
# objects (linkage/grasp.h), on threads and, with Open MPI, across
# processes (pool.c). Installed, with its man page, as docs/grasp.md
# (installed too) describes it.
bin_PROGRAMS += demos/grasp-planner
dist_man_MANS += %reldir%/grasp-planner.1
demos_grasp_planner_LDFLAGS = $(LK_RUNPATH)
demos_grasp_planner_SOURCES = %reldir%/grasp-planner.c %reldir%/pool.c %reldir%/pool.h
demos_grasp_planner_CFLAGS = $(AM_CFLAGS)
demos_grasp_planner_LDADD = $(LK_PROGLIBS) $(PTHREAD_LIBS)
if HAVE_MPI
demos_grasp_planner_CFLAGS += $(MPI_CFLAGS)
demos_grasp_planner_LDADD += $(MPI_LIBS)
endif
