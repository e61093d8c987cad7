# docs: design notes shipped with the sources.
EXTRA_DIST += %reldir%/lcp.md
