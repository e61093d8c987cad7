# bench: files added by this folder's work.
