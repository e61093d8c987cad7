# Public headers, installed under $(includedir)/linkage.
linkageinclude_HEADERS += \
	%reldir%/linkage.h \
	%reldir%/error.h \
	%reldir%/math.h \
	%reldir%/lcp.h
