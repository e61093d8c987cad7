# Core: status codes, errors, allocator hook, GSL guard, SSE2 lanes.
lib_liblinkage_la_SOURCES += \
	%reldir%/internal.h \
	%reldir%/error.c \
	%reldir%/alloc.c \
	%reldir%/gsl.c \
	%reldir%/names.h \
	%reldir%/names.c \
	%reldir%/number.h \
	%reldir%/number.c \
	%reldir%/simd.h
lib_liblinkage_la_LIBADD += $(PTHREAD_LIBS)
