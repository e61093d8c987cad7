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
	%reldir%/object_sphere.yaml \
	%reldir%/objects.list \
	%reldir%/pendulum.yaml \
	%reldir%/pushed_block.yaml \
	%reldir%/rolling_sphere.yaml \
	%reldir%/rover.yaml \
	%reldir%/three_finger_hand.yaml
