# lib/lcp: files added by this folder's work.
