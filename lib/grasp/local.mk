# lib/grasp: files added by this folder's work.
