# Data: the arena that holds one simulation's state and workspaces.
lib_liblinkage_la_SOURCES += \
	%reldir%/arena.h \
	%reldir%/data_impl.h \
	%reldir%/data.c
