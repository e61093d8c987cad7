# Benchmarks: programs that print figures (not tests). bench/dynamics times
# the rigid-body algorithms and compares with MuJoCo when it is installed.
noinst_PROGRAMS += bench/dynamics
bench_dynamics_SOURCES = %reldir%/dynamics.c %reldir%/testbeds.c %reldir%/testbeds.h
bench_dynamics_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
bench_dynamics_LDADD = $(LK_PROGLIBS)
if HAVE_MUJOCO
bench_dynamics_LDADD += $(MUJOCO_LIBS)
endif
# bench/collision: time per lk_collide pass, spheres and boxes on a plane;
# mesh pairs against libccd when configure found it.
noinst_PROGRAMS += bench/collision
bench_collision_SOURCES = %reldir%/collision.c %reldir%/collision_mesh.c
bench_collision_LDADD = $(LK_PROGLIBS)
if HAVE_CCD
bench_collision_CFLAGS = $(AM_CFLAGS) $(CCD_CFLAGS)
bench_collision_LDADD += $(CCD_LIBS)
endif
# bench: programs that print figures (not tests). bench/lcp compares with
# Siconos numerics' Lemke when configure found it, and runs Siconos'
# friction-contact collection from a directory (fc3d.c).
noinst_PROGRAMS += bench/lcp
bench_lcp_SOURCES = %reldir%/lcp.c %reldir%/fc3d.c tests/lcp/lcp_gen.c tests/lcp/lcp_gen.h
bench_lcp_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/lcp
bench_lcp_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
bench_lcp_LDADD = $(LK_PROGLIBS)
if HAVE_SICONOS
bench_lcp_CPPFLAGS += $(SICONOS_CFLAGS)
bench_lcp_LDADD += $(SICONOS_LIBS)
endif
# bench/contact: time per contact step (box, stack, arm, gripper) for every
# solver and cone, against ODE's dWorldStep on the same scenes when found.
noinst_PROGRAMS += bench/contact
bench_contact_SOURCES = %reldir%/contact.c
bench_contact_CFLAGS = $(AM_CFLAGS)
bench_contact_LDADD = $(LK_PROGLIBS)
if HAVE_ODE
bench_contact_SOURCES += %reldir%/ode_scene.c %reldir%/ode_scene.h
bench_contact_CFLAGS += $(ODE_CFLAGS)
bench_contact_LDADD += $(ODE_LIBS)
endif
# bench/models: one line per friction model (docs/contact-models.md).
noinst_PROGRAMS += bench/models
bench_models_SOURCES = %reldir%/models.c tests/sim/scenes.c tests/sim/scenes.h
bench_models_LDADD = $(LK_PROGLIBS)
# bench/grasp: analytic screens and grasp trials per second (jaw gripper +
# box) on one thread and on several, and the planner's sweep under mpirun.
noinst_PROGRAMS += bench/grasp
bench_grasp_SOURCES = %reldir%/grasp.c
bench_grasp_CPPFLAGS = $(AM_CPPFLAGS) -DLK_MECHANISMS='"$(abs_top_srcdir)/mechanisms"' \
	-DLK_BUILDDIR='"$(abs_top_builddir)"'
if HAVE_MPI
bench_grasp_CPPFLAGS += -DLK_MPIRUN='"$(MPIRUN)"'
endif
bench_grasp_LDADD = $(LK_PROGLIBS) $(PTHREAD_LIBS)
# bench/real_hands: the Robotiq 2F-85, Panda, Allegro and Shadow hands as
# published on the YCB objects of ../shared/data/robots (issue 32).
noinst_PROGRAMS += bench/real_hands
bench_real_hands_SOURCES = %reldir%/real_hands.c
bench_real_hands_CPPFLAGS = $(AM_CPPFLAGS) -DLK_ROBOTS='"$(abs_top_srcdir)/../shared/data/robots"'
bench_real_hands_LDADD = $(LK_PROGLIBS)
# bench/piles: contact at scale (issue 20): draped chains, towers,
# pyramid piles and spheres in a bin against MuJoCo's mj_step and ODE's
# dWorldStep and dWorldQuickStep on the same scenes, by turns.
noinst_PROGRAMS += bench/piles
bench_piles_SOURCES = %reldir%/piles.c tests/sim/piles.c tests/sim/piles.h
bench_piles_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/sim
bench_piles_LDADD = $(LK_PROGLIBS)
if HAVE_MUJOCO
bench_piles_LDADD += $(MUJOCO_LIBS)
endif
if HAVE_ODE
bench_piles_SOURCES += %reldir%/ode_scene.c %reldir%/ode_scene.h
bench_piles_CFLAGS = $(AM_CFLAGS) $(ODE_CFLAGS)
bench_piles_LDADD += $(ODE_LIBS)
endif
# bench/humanoid: MuJoCo's humanoid.xml through Linkage and MuJoCo from the
# same file, falling onto its floor (issue 15): us a step by turns, ratio.
noinst_PROGRAMS += bench/humanoid
bench_humanoid_SOURCES = %reldir%/humanoid.c
bench_humanoid_LDADD = $(LK_PROGLIBS)
if HAVE_MUJOCO
bench_humanoid_LDADD += $(MUJOCO_LIBS)
endif
# bench/motion: scenes in motion from the drop to rest (issue 35): the
# heaps of ../shared/data/scenes, spheres into a bin, MuJoCo's humanoid,
# draped chains; whole runs by turns against mj_step and dWorldQuickStep.
noinst_PROGRAMS += bench/motion
bench_motion_SOURCES = %reldir%/motion.c tests/sim/piles.c tests/sim/piles.h
bench_motion_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/sim \
	-DLK_SHARED_DATA='"$(abs_top_srcdir)/../shared/data"'
bench_motion_LDADD = $(LK_PROGLIBS)
if HAVE_MUJOCO
bench_motion_LDADD += $(MUJOCO_LIBS)
endif
if HAVE_ODE
bench_motion_SOURCES += %reldir%/ode_scene.c %reldir%/ode_scene.h
bench_motion_CFLAGS = $(AM_CFLAGS) $(ODE_CFLAGS)
bench_motion_LDADD += $(ODE_LIBS)
endif
# bench/robots: every robot and object description under
# ../shared/data/robots, as published (issue 29): load, 2 s on a floor,
# mass and dynamics against MuJoCo, load time; one line a file.
noinst_PROGRAMS += bench/robots
bench_robots_SOURCES = %reldir%/robots.c
bench_robots_LDADD = $(LK_PROGLIBS)
if HAVE_MUJOCO
bench_robots_LDADD += $(MUJOCO_LIBS)
endif
