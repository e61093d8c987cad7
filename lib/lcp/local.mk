# lib/lcp: linear complementarity solvers (knows nothing of mechanics).
lib_liblinkage_la_SOURCES += \
	%reldir%/lcp_internal.h \
	%reldir%/lcp_layer.h \
	%reldir%/lcp.c \
	%reldir%/residual.c \
	%reldir%/lemke.c \
	%reldir%/ppm.c \
	%reldir%/dense.c \
	%reldir%/expand.c \
	%reldir%/ldlt.c \
	%reldir%/dantzig.c \
	%reldir%/nsgs.c \
	%reldir%/anderson.c \
	%reldir%/newton.c \
	%reldir%/lcp_problem.c \
	%reldir%/lcp_yaml.c \
	%reldir%/lcp_dat.c
