# Constraints: row buffer, frictionContact/rollingContact, joint limits and
# dry friction, loops, couplings, tethers.
lib_liblinkage_la_SOURCES += \
	%reldir%/rows.h \
	%reldir%/constraint_impl.h \
	%reldir%/rowbuf.c \
	%reldir%/contact.c \
	%reldir%/joint.c \
	%reldir%/loop.c \
	%reldir%/support.c
