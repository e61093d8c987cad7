# Dynamics: kinematics, Jacobians, CRBA, RNEA, ABA, energies, the step.
lib_liblinkage_la_SOURCES += \
	%reldir%/dyn_data.h \
	%reldir%/dyn_data.c \
	%reldir%/kinematics.c
