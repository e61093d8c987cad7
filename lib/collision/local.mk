# lib/collision: files added by this folder's work.
