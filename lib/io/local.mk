# lib/io: files added by this folder's work.
