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
	%reldir%/input.c \
	%reldir%/load.c \
	%reldir%/meshfile.c \
	%reldir%/csv.c \
	%reldir%/svg.c \
	%reldir%/plotcols.c \
	%reldir%/view.c \
	%reldir%/view_assets.S
# The viewer page's assets, inlined by view_assets.S with .incbin (which
# dependency tracking does not see, hence the explicit rule).
lib_liblinkage_la_CCASFLAGS = $(AM_CCASFLAGS) \
	-DLK_THREE_JS='"$(THREE_JS)"' -DLK_THREE_ORBIT_JS='"$(THREE_ORBIT_JS)"' \
	-DLK_VIEWER_JS='"$(top_srcdir)/tools/viewer/viewer.js"' \
	-DLK_VIEWER_CSS='"$(top_srcdir)/tools/viewer/viewer.css"'
LK_VIEW_ASSETS_LO = %reldir%/liblinkage_la-view_assets.lo
$(LK_VIEW_ASSETS_LO): $(THREE_JS) $(THREE_ORBIT_JS) \
	$(top_srcdir)/tools/viewer/viewer.js $(top_srcdir)/tools/viewer/viewer.css
EXTRA_DIST += tools/viewer/viewer.js tools/viewer/viewer.css
