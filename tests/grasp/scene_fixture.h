/* What the grasp tests on hands of their own share: a scene loaded from a
 * hand and an object file (the paths copied first: the test harness's
 * path helpers return static buffers) and a hand joint's q. */
#ifndef LK_TESTS_GRASP_SCENE_FIXTURE_H
#define LK_TESTS_GRASP_SCENE_FIXTURE_H

#include <stdio.h>

#include "harness.h"
#include "linkage/linkage.h"

/* The scene of hand and object with options o (NULL: the defaults);
 * NULL, the failure asserted, when it does not load. */
static inline lk_grasp_scene *fixture_scene(const char *hand, const char *object,
                                            const lk_grasp_scene_options *o) {
  char hpath[4096], opath[4096];
  snprintf(hpath, sizeof hpath, "%s", hand);
  snprintf(opath, sizeof opath, "%s", object);
  lk_error e;
  lk_grasp_scene *s = lk_grasp_scene_load(hpath, opath, o, &e);
  LK_ASSERT_MSG(s != NULL, "%s + %s: %s", hpath, opath, e.message);
  return s;
}

/* The q of a hand joint (scene name "hand_" + joint). */
static inline double fixture_joint_q(const lk_grasp_scene *s, lk_data *d, const char *joint) {
  const lk_model *m = lk_grasp_scene_model(s);
  char name[64];
  snprintf(name, sizeof name, "hand_%s", joint);
  int l = lk_model_joint_index(m, name);
  CU_ASSERT_FATAL(l > 0);
  return lk_data_q(d)[lk_model_joint_qadr(m, l)];
}

#endif
