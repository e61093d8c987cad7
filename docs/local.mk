# docs: design notes shipped with the sources, and the mechanism file format
# reference, all installed with the documentation (they link to each other
# by relative name, so they are installed side by side).
dist_doc_DATA = %reldir%/format.md %reldir%/contact.md %reldir%/architecture.md \
	%reldir%/lcp.md %reldir%/contact-models.md %reldir%/grasp.md \
	%reldir%/viewer.md %reldir%/viewer-gripper.png %reldir%/control.md \
	%reldir%/pick-and-shake-plot.png %reldir%/viewer-pick-and-shake.png \
	%reldir%/python.md %reldir%/viewer-robotiq-2f85.png \
	%reldir%/grasp-robotiq-2f85-urdf-soup-can.png %reldir%/grasp-robotiq-2f85-mjcf-soup-can.png
