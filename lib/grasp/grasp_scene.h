/* The layout of a grasp scene, shared by scene.c, control.c and trial.c
 * (not installed). */
#ifndef LK_GRASP_SCENE_H
#define LK_GRASP_SCENE_H

#include "linkage/grasp.h"

#define LK_GRASP_MAX_LOOPS 8

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
  /* The joint's viscous damping and dry friction (what the closing loop
   * feeds forward at the closing speed). */
  double damping[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  double friction[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
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
  /* The hand's loops (MJCF connect and weld: a four-bar finger closed by
   * an equality, Menagerie's 2F-85) and their passive joints: the moving
   * joints on a loop's path that are neither actuated nor coupled. They
   * follow the finger joints on the loop (loops.c); a passive joint that
   * the file's initial state has at a limit (a spring holding it on its
   * stop) is held there. lp_dofs, lp_cps: bit k, the finger DoF k (coupled
   * joint k) is on the loop of passive joint p. */
  int nloop;
  int loop_type[LK_GRASP_MAX_LOOPS];
  int loop_link[LK_GRASP_MAX_LOOPS][2];
  lk_vec3 loop_point[LK_GRASP_MAX_LOOPS][2]; /* in each link's frame */
  lk_mat3 loop_frame[LK_GRASP_MAX_LOOPS][2]; /* the frames' axes, link frames */
  int nlp;
  int lp_qadr[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  int lp_link[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  unsigned char lp_held[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  unsigned long long lp_dofs[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  unsigned long long lp_cps[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  /* loop_dofs[i], loop_cps[i]: the same for loop i; lp_loops[p]: bit i,
   * passive joint p is on loop i. */
  unsigned long long loop_dofs[LK_GRASP_MAX_LOOPS], loop_cps[LK_GRASP_MAX_LOOPS];
  unsigned lp_loops[LK_GRASP_MAX_FINGERS * LK_GRASP_MAX_FINGER_DOFS];
  int *finger_of_link;          /* nlink entries */
  char warning[LK_ERROR_MESSAGE_MAX]; /* lk_grasp_scene_warning */
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

/* Close the hand's loops (loops.c): the passive loop joints not held moved
 * so that every loop closes to tol (m; rad for a weld's turn), from q as
 * it is in d (Gauss-Newton, least squares: the smallest change). d's
 * kinematics up to date on return; LK_NOT_CONVERGED when a loop stays
 * open (q left at the best found). No allocation. */
lk_status lk_grasp_scene_close_loops(const lk_grasp_scene *s, lk_data *d, double tol);

/* The rates of the passive loop joints (rate[p], per unit of a path
 * parameter) when the finger DoFs move at dof_rate[k] and the coupled
 * joints at cp_rate[j] (d's kinematics, the loops closed). */
void lk_grasp_scene_loop_rates(const lk_grasp_scene *s, const lk_data *d, const double *dof_rate,
                               const double *cp_rate, double *rate);

/* The hand's loops and their passive joints (scene.c calls it once the
 * fingers and couplings are known): fills nloop, loop_*, nlp, lp_*, and
 * gives the links below a passive joint to its loop's finger. */
lk_status lk_grasp_scene_find_loops(lk_grasp_scene *s, const double *q0, lk_error *err);

#endif
