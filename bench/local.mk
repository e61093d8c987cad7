# Benchmarks: programs that print figures (not tests). bench/dynamics times
# the rigid-body algorithms and compares with MuJoCo when it is installed.
noinst_PROGRAMS += bench/dynamics
bench_dynamics_SOURCES = %reldir%/dynamics.c %reldir%/testbeds.c %reldir%/testbeds.h
bench_dynamics_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
bench_dynamics_LDADD = $(LK_PROGLIBS)
if HAVE_MUJOCO
bench_dynamics_LDADD += $(MUJOCO_LIBS)
endif
# bench/collision: time per lk_collide pass, spheres and boxes on a plane.
noinst_PROGRAMS += bench/collision
bench_collision_SOURCES = %reldir%/collision.c
bench_collision_LDADD = $(LK_PROGLIBS)
