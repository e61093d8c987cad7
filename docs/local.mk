# docs: design notes shipped with the sources, and the mechanism file format
# reference, installed with the documentation.
EXTRA_DIST += %reldir%/lcp.md %reldir%/contact-models.md
dist_doc_DATA = %reldir%/format.md %reldir%/contact.md %reldir%/architecture.md
