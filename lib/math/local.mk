# Math: the inline header is include/linkage/math.h; these are the rest.
lib_liblinkage_la_SOURCES += \
	%reldir%/mat3.c \
	%reldir%/quat.c \
	%reldir%/inertia.c
