# The example mechanisms, installed under $(pkgdatadir)/mechanisms (and
# loaded, validated and run by tests/io).
mechanismsdir = $(pkgdatadir)/mechanisms
dist_mechanisms_DATA = \
	%reldir%/arm7.yaml \
	%reldir%/ball_board.yaml \
	%reldir%/block_on_incline.yaml \
	%reldir%/bowling_ball.yaml \
	%reldir%/box_stack.yaml \
	%reldir%/double_pendulum.yaml \
	%reldir%/four_bar.yaml \
	%reldir%/gripper.yaml \
	%reldir%/hand3.yaml \
	%reldir%/jaw_gripper.yaml \
	%reldir%/jaw_gripper_urdf.yaml \
	%reldir%/jaw-gripper.urdf \
	%reldir%/object_box.yaml \
	%reldir%/object_cylinder.yaml \
	%reldir%/object_mug.yaml \
	%reldir%/object_mug_mesh.yaml \
	%reldir%/object_sphere.yaml \
	%reldir%/object_stone.yaml \
	%reldir%/objects.list \
	%reldir%/pendulum.yaml \
	%reldir%/pick_and_shake.yaml \
	%reldir%/pipe_support.yaml \
	%reldir%/pipe_support_2d.yaml \
	%reldir%/pushed_block.yaml \
	%reldir%/rolling_sphere.yaml \
	%reldir%/rover.yaml \
	%reldir%/three_finger_hand.yaml

# The example mesh objects (mechanisms/meshes/meshgen.c writes them; the
# files are committed, and tests/collision/test_mesh checks they are what
# it writes). Installed beside the mechanisms that name them.
meshesdir = $(mechanismsdir)/meshes
dist_meshes_DATA = %reldir%/meshes/mug.obj %reldir%/meshes/stone.stl
noinst_PROGRAMS += %reldir%/meshes/mkmeshes
mechanisms_meshes_mkmeshes_SOURCES = %reldir%/meshes/mkmeshes.c %reldir%/meshes/meshgen.c \
	%reldir%/meshes/meshgen.h
mechanisms_meshes_mkmeshes_LDADD = $(LK_PROGLIBS)
