/* The layout of a grasp scene, shared by scene.c, control.c and trial.c
 * (not installed). */
#ifndef LK_GRASP_SCENE_H
#define LK_GRASP_SCENE_H

#include "linkage/grasp.h"

struct lk_grasp_scene {
  lk_model *m;
  int mount, palm, object;      /* links */
  int mount_vadr, mount_qadr;   /* the mount's free joint */
  int object_vadr, object_qadr; /* the object's free joint */
  /* The hand frame: the palm link's turned so that -z is the approach
   * (lk_grasp_scene_options.approach); poses of the hand are of it. */
  lk_mat3 hand_in_palm;
  lk_transform palm_in_mount;   /* the hand frame's fixed pose on the mount */
  unsigned char *palm_body;     /* nlink: welded to the palm by fixed joints */
  lk_vec3 finger_axis[LK_GRASP_MAX_FINGERS]; /* a one-joint finger's closing
                                   direction, hand frame (prismatic fingers) */
  int nfinger;
  lk_grasp_finger finger[LK_GRASP_MAX_FINGERS];
  int nfdof;                    /* finger DoFs over all fingers */
  int fdof_qadr[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  double preshape0[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  /* Closing direction of each finger DoF, +1 or -1 (lk_grasp_finger). */
  int fdof_sign[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  double max_effort[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  int fdof_prismatic[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  /* The finger actuators' laws, to command an effort through them. */
  lk_actuator_type act_type[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  double act_kp[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  double act_kv[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  double stiffness[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS]; /* joint spring */
  double rest[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  /* Joints coupled to a finger DoF (lk_grasp_finger.coupled_dof, in
   * finger order): q[cp_qadr] = cp_ratio q[fdof_qadr[cp_leader]] + cp_offset. */
  int ncoupled;
  int cp_qadr[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  int cp_link[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  int cp_leader[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS]; /* finger DoF index */
  double cp_ratio[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  double cp_offset[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  /* A coupled joint's closing direction: sign(cp_ratio) times its
   * leader's. */
  int cp_sign[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  int *finger_of_link;          /* nlink entries */
  unsigned char *hand_link;     /* nlink: mount, palm, everything below */
  double object_mass, object_radius, object_inertia; /* inertia: trace / 3 */
  lk_transform object_pose;     /* starting pose (world) */
  lk_vec3 object_com;           /* centre of mass, object frame */
  double reach;
};

/* The hand frame's world pose in d (its kinematics up to date). */
lk_transform lk_grasp_scene_hand_frame(const lk_grasp_scene *s, const lk_data *d);

/* The scene's q for a hand pose (palm in the object's starting frame) and a
 * pre-shape (NULL: the hand file's): the mount's free joint and the finger
 * joints are written, the rest of q is left as it is. Shared by placing
 * (trial.c) and screening (screen.c). */
lk_status lk_grasp_scene_pose_q(const lk_grasp_scene *s, double *q, const lk_transform *hand_pose,
                                const double *preshape, lk_error *err);

#endif
