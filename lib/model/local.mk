# Model: builder, validation (finalize), queries.
lib_liblinkage_la_SOURCES += \
	%reldir%/model_impl.h \
	%reldir%/model.c \
	%reldir%/finalize.c \
	%reldir%/plausible.c \
	%reldir%/elements.c
# Mesh geoms' convex hulls (qhull) and their mass properties.
lib_liblinkage_la_SOURCES += \
	%reldir%/mesh_impl.h \
	%reldir%/mesh.c
# The solid a closed triangle mesh bounds (MJCF mesh mass, not the hull's).
lib_liblinkage_la_SOURCES += \
	%reldir%/mesh_solid.h \
	%reldir%/mesh_solid.c
# Sensors: named outputs of the state (MJCF <sensor>).
lib_liblinkage_la_SOURCES += %reldir%/sensor.c
# Approximate convex decomposition of a mesh's surface by plane cuts.
lib_liblinkage_la_SOURCES += \
	%reldir%/decompose.c
