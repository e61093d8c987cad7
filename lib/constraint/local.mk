# lib/constraint: files added by this folder's work.
