# Public headers, installed under $(includedir)/linkage.
linkageinclude_HEADERS += \
	%reldir%/linkage.h \
	%reldir%/error.h \
	%reldir%/math.h \
	%reldir%/model.h \
	%reldir%/data.h \
	%reldir%/dynamics.h \
	%reldir%/collision.h \
	%reldir%/lcp.h \
	%reldir%/constraint.h \
	%reldir%/sim.h \
	%reldir%/statics.h \
	%reldir%/io.h \
	%reldir%/grasp.h
