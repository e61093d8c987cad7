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
# Approximate convex decomposition of a mesh's surface by plane cuts.
lib_liblinkage_la_SOURCES += \
	%reldir%/decompose.c
