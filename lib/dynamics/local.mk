# lib/dynamics: files added by this folder's work.
