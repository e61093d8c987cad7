# Simulation: the contact time step.
lib_liblinkage_la_SOURCES += \
	%reldir%/sim_data.h \
	%reldir%/sim_data.c \
	%reldir%/applied.c
