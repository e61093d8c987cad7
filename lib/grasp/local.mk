# lib/grasp: grasp analysis (grasp matrix, wrench cones, force closure,
# epsilon and volume with qhull, minimum finger forces) and grasp trials
# (hand + object scenes, closing, lifting, shaking).
lib_liblinkage_la_SOURCES += \
	%reldir%/grasp_internal.h \
	%reldir%/lp.c \
	%reldir%/wrench.c \
	%reldir%/closure.c \
	%reldir%/quality.c \
	%reldir%/epsilon.c \
	%reldir%/force.c \
	%reldir%/contacts.c \
	%reldir%/grasp_scene.h \
	%reldir%/scene.c \
	%reldir%/loops.c \
	%reldir%/object.c \
	%reldir%/trial.c \
	%reldir%/screen.c \
	%reldir%/sample.c
