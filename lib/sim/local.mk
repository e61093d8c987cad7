# Simulation: the time step (contacts -> constraints -> LCP -> integrate).
lib_liblinkage_la_SOURCES += \
	%reldir%/sim_data.h \
	%reldir%/sim_data.c \
	%reldir%/applied.c \
	%reldir%/step.c
