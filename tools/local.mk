# tools: the linkage program; one subcommand a file (cmd_<name>.c), listed in
# the table of linkage.c.
bin_PROGRAMS += tools/linkage
tools_linkage_SOURCES = \
	%reldir%/linkage.c \
	%reldir%/commands.h \
	%reldir%/cli.h \
	%reldir%/cli.c \
	%reldir%/cmd_lcp.c \
	%reldir%/cmd_simulate.c \
	%reldir%/cmd_check.c \
	%reldir%/cmd_info.c \
	%reldir%/cmd_static.c \
	%reldir%/cmd_view.c \
	%reldir%/cmd_convert.c
tools_linkage_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tools_linkage_LDADD = $(LK_PROGLIBS) $(PTHREAD_LIBS)
tools_linkage_LDFLAGS = $(LK_RUNPATH)
dist_man_MANS += %reldir%/linkage.1
