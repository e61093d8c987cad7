/* What a plot can show of a run (linkage/io.h: lk_plot_column_*): every
 * trajectory column of every group, and two per-link contact figures that
 * no CSV column has; and the unit of each, read from what its name says it
 * is, so that plots put metres, radians and newtons on axes of their own. */
#include <stdlib.h>
#include <string.h>

#include "linkage/io.h"

#define ALL_GROUPS (LK_COLUMNS_POSE | LK_COLUMNS_ACTUATORS | LK_COLUMNS_ENERGY | LK_COLUMNS_TACTILE)

int lk_plot_column_index(const lk_model *m, const char *name) {
  if (!m || !name) return -1;
  int c = lk_trajectory_column_index_in(m, ALL_GROUPS, name);
  if (c >= 0) return c;
  const char *dot = strrchr(name, '.');
  if (!dot || (strcmp(dot, ".utilization") != 0 && strcmp(dot, ".slip_speed") != 0)) return -1;
  char base[LK_IO_COLUMN_MAX];
  if ((size_t)(dot - name) >= sizeof base) return -1;
  snprintf(base, sizeof base, "%.*s", (int)(dot - name), name);
  int l = lk_model_link_index(m, base);
  if (l < 1) return -1;
  return lk_trajectory_ncolumns_in(m, ALL_GROUPS) + 2 * (l - 1) + (strcmp(dot, ".slip_speed") == 0);
}

/* The unit of a plotted column, from what its name says it is. */
const char *lk_plot_column_unit(const lk_model *m, const char *name) {
  if (!m || !name) return "";
  if (strcmp(name, "t") == 0) return "s";
  if (!strcmp(name, "kinetic") || !strcmp(name, "potential") || !strcmp(name, "energy")) return "J";
  const char *dot = strrchr(name, '.');
  if (!dot) return "";
  char base[LK_IO_COLUMN_MAX];
  snprintf(base, sizeof base, "%.*s", (int)(dot - name), name);
  const char *suf = dot + 1;
  if (!strcmp(suf, "x") || !strcmp(suf, "y") || !strcmp(suf, "z")) return "m";
  if (!strcmp(suf, "qw") || !strcmp(suf, "qx") || !strcmp(suf, "qy") || !strcmp(suf, "qz")) return "1";
  if (!strcmp(suf, "fn") || !strcmp(suf, "shear")) return "N";
  if (!strcmp(suf, "slip") || !strcmp(suf, "slip_score") || !strcmp(suf, "utilization")) return "1";
  if (!strcmp(suf, "slip_speed")) return "m/s";
  if (!strcmp(suf, "force")) {
    int a = lk_model_actuator_index(m, base);
    lk_actuator_spec as;
    if (a >= 0 && lk_model_actuator(m, a, &as) == LK_OK) {
      int l = lk_model_joint_index(m, as.joint);
      return l > 0 && lk_model_joint_type(m, l) == LK_JOINT_PRISMATIC ? "N" : "N m";
    }
    return "";
  }
  int l = lk_model_joint_index(m, base);
  if (l <= 0 || (suf[0] != 'q' && suf[0] != 'v')) return "";
  lk_joint_type jt = lk_model_joint_type(m, l);
  int pos = suf[0] == 'q', k = suf[1] ? atoi(suf + 1) : 0;
  if (jt == LK_JOINT_PRISMATIC) return pos ? "m" : "m/s";
  if (jt == LK_JOINT_REVOLUTE) return pos ? "rad" : "rad/s";
  if (jt == LK_JOINT_FREE) {
    if (pos) return k < 3 ? "m" : "1";
    return k < 3 ? "m/s" : "rad/s";
  }
  return pos ? "1" : "rad/s"; /* ball: quaternion, angular velocity */
}

