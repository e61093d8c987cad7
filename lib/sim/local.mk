# lib/sim: files added by this folder's work.
