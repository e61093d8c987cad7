# I/O: YAML mechanism descriptions (libyaml document API), URDF (libxml2), --set overrides,
# trajectory and contact CSV, SVG plots.
lib_liblinkage_la_SOURCES += \
	%reldir%/io_internal.h \
	%reldir%/outfile.c \
	%reldir%/number.c \
	%reldir%/outputs.c \
	%reldir%/ydoc.h \
	%reldir%/ydoc.c \
	%reldir%/override.c \
	%reldir%/builder.h \
	%reldir%/builder.c \
	%reldir%/yaml.c \
	%reldir%/xml.h \
	%reldir%/xml.c \
	%reldir%/urdf.h \
	%reldir%/urdf.c \
	%reldir%/convert.c \
	%reldir%/mjcf.h \
	%reldir%/mjcf.c \
	%reldir%/load.c \
	%reldir%/csv.c \
	%reldir%/svg.c
