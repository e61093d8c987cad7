# Dynamics: kinematics, Jacobians, CRBA, RNEA, ABA, energies, integration.
lib_liblinkage_la_SOURCES += \
	%reldir%/dyn_data.h \
	%reldir%/dyn_data.c \
	%reldir%/dynamics_impl.h \
	%reldir%/kinematics.c \
	%reldir%/jacobian.c \
	%reldir%/crba.c \
	%reldir%/factor.c \
	%reldir%/rnea.c \
	%reldir%/aba.c \
	%reldir%/forward.c \
	%reldir%/passive.c \
	%reldir%/energy.c \
	%reldir%/integrate.c
