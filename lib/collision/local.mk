# Collision: shapes, narrow phase, broad phase, persistent contacts.
lib_liblinkage_la_SOURCES += \
	%reldir%/col_data.h \
	%reldir%/col_data.c \
	%reldir%/shape.h \
	%reldir%/narrow.c \
	%reldir%/plane.c \
	%reldir%/sphere.c \
	%reldir%/capsule.c \
	%reldir%/box.c \
	%reldir%/clip.c \
	%reldir%/gjk.c \
	%reldir%/convex.c \
	%reldir%/hull.c \
	%reldir%/broadphase.c \
	%reldir%/collide.c
