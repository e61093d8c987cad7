# tools: the linkage program; one subcommand a file (cmd_<name>.c), listed in
# the table of linkage.c.
bin_PROGRAMS += tools/linkage
tools_linkage_SOURCES = \
	%reldir%/linkage.c \
	%reldir%/commands.h \
	%reldir%/cmd_lcp.c
tools_linkage_LDADD = $(LK_PROGLIBS)
