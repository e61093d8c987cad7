# docs: files added by this folder's work.
# The mechanism file format reference, installed with the documentation.
dist_doc_DATA = %reldir%/format.md
