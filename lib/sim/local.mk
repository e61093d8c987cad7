# Simulation: the time step (contacts -> constraints -> LCP -> integrate).
lib_liblinkage_la_SOURCES += \
	%reldir%/sim_data.h \
	%reldir%/sim_internal.h \
	%reldir%/sim_data.c \
	%reldir%/sim_scratch.c \
	%reldir%/applied.c \
	%reldir%/contacts.c \
	%reldir%/geometry.c \
	%reldir%/island.c \
	%reldir%/plan.h \
	%reldir%/plan.c \
	%reldir%/island_solve.h \
	%reldir%/solve.c \
	%reldir%/guess.c \
	%reldir%/held.c \
	%reldir%/cuts.c \
	%reldir%/sparse.c \
	%reldir%/iterative.c \
	%reldir%/direct.c \
	%reldir%/constrain.c \
	%reldir%/prescribed.c \
	%reldir%/impact.c \
	%reldir%/friction_state.c \
	%reldir%/project.c \
	%reldir%/anchor.c \
	%reldir%/report.c \
	%reldir%/step.c \
	%reldir%/journal.c \
	%reldir%/models_data.h \
	%reldir%/models_data.c \
	%reldir%/rowlcp.c \
	%reldir%/static.c \
	%reldir%/compliant.h \
	%reldir%/compliant.c \
	%reldir%/smoothed.c
