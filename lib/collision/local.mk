# Collision: shapes, narrow phase, broad phase, persistent contacts.
lib_liblinkage_la_SOURCES += \
	%reldir%/col_data.h \
	%reldir%/col_data.c
