# lib/model: files added by this folder's work.
