# Model: builder, validation (finalize), queries.
lib_liblinkage_la_SOURCES += \
	%reldir%/model_impl.h \
	%reldir%/model.c \
	%reldir%/finalize.c \
	%reldir%/elements.c
