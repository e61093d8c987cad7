/* linkage info FILE: the kinematic tree of a mechanism, with joints,
 * masses and geoms, then its other elements and options. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/commands.h"

void lk_cmd_info_usage(FILE *f) {
  fprintf(f,
          "usage: linkage info [--set KEY=VALUE]... FILE\n"
          "\n"
          "Print the kinematic tree of a mechanism (links, their joints, masses and\n"
          "geoms), then its actuators, loads, explicit contacts, constraints, initial\n"
          "state and options.\n"
          "\n"
          "  -s, --set KEY=VALUE  override a value by dotted path; repeatable\n"
          "      --package-path DIR\n                       look for a URDF's package:// files in DIR\n"
          "                       (repeatable; then in $ROS_PACKAGE_PATH)\n"
          LK_CLI_LOAD_HELP
          "  -h, --help           show this help\n"
          "\n"
          "Exit status: 0 success, 1 standard output could not be written, 2 an invalid\n"
          "file or a usage error.\n");
}

static void vec(lk_vec3 v) { printf("(%g, %g, %g)", v.x, v.y, v.z); }

static void geom_line(const lk_model *m, int g, const char *indent, int last) {
  lk_geom_spec s;
  lk_model_geom(m, g, &s);
  printf("%s%s geom %s%s%s", indent, last ? "`--" : "|--", lk_geom_type_name(s.type),
         s.name ? " " : "", s.name ? s.name : "");
  switch (s.type) {
    case LK_GEOM_SPHERE:
      printf(" r=%g", s.size[0]);
      break;
    case LK_GEOM_CAPSULE:
    case LK_GEOM_CYLINDER:
      printf(" r=%g half_length=%g", s.size[0], s.size[1]);
      break;
    case LK_GEOM_BOX:
      printf(" half_extents=(%g, %g, %g)", s.size[0], s.size[1], s.size[2]);
      break;
    case LK_GEOM_MESH:
      printf(" hull of %d vertices, %d faces", lk_mesh_nvertex(s.mesh), lk_mesh_nface(s.mesh));
      break;
    default:
      printf(" normal=");
      vec(lk_m3_col(&s.pose.R, 2));
      break;
  }
  printf(" at ");
  vec(s.pose.p);
  /* A geom no pair can collide with (a URDF <visual>: group and mask 0)
   * is drawn only: said so, not shown as a second solid (issue 33). */
  if (s.group == 0 || s.mask == 0) {
    printf(" visual only (collides with nothing)\n");
    return;
  }
  lk_material_spec mat;
  lk_model_material(m, lk_model_geom_material(m, g), &mat);
  printf(" material %s\n", mat.name);
}

static void link_tree(const lk_model *m, int l, const char *indent, int last) {
  char sub[512];
  if (l == 0) {
    printf("world\n");
    snprintf(sub, sizeof sub, "%s", "");
  } else {
    lk_link_spec s;
    lk_model_link(m, l, &s);
    printf("%s%s %s  [%s", indent, last ? "`--" : "|--", s.name, lk_joint_type_name(s.joint.type));
    if (strcmp(s.joint.name, s.name) != 0) printf(" '%s'", s.joint.name);
    if (s.joint.type == LK_JOINT_REVOLUTE || s.joint.type == LK_JOINT_PRISMATIC) {
      printf(" axis ");
      vec(s.joint.axis);
    }
    if (s.joint.limited) printf(" limit %g..%g", s.joint.lower, s.joint.upper);
    printf("]");
    if (s.mass > 0) {
      printf(" mass %g kg, com ", s.mass);
      vec(s.com);
    } else {
      printf(" massless");
    }
    printf(", origin ");
    vec(s.origin.p);
    printf("\n");
    snprintf(sub, sizeof sub, "%s%s", indent, last ? "    " : "|   ");
  }
  /* Children: the geoms on this link first, then the child links. */
  int ng = lk_model_ngeom(m), nl = lk_model_nlink(m), nchild = 0, ngl = 0;
  for (int g = 0; g < ng; g++) ngl += lk_model_geom_link(m, g) == l;
  for (int c = l + 1; c < nl; c++) nchild += lk_model_link_parent(m, c) == l;
  int left = ngl + nchild;
  for (int g = 0; g < ng; g++)
    if (lk_model_geom_link(m, g) == l) geom_line(m, g, sub, --left == 0);
  for (int c = l + 1; c < nl; c++)
    if (lk_model_link_parent(m, c) == l) link_tree(m, c, sub, --left == 0);
}

static void elements(const lk_model *m) {
  static const char *const cones[] = {"circle", "pyramid", "box"};
  static const char *const mixes[] = {"geometric", "min", "max", "mean"};
  static const char *const loops[] = {"ball", "pin", "rigid"};
  int n;
  if ((n = lk_model_nactuator(m)) > 0) {
    printf("actuators:\n");
    for (int i = 0; i < n; i++) {
      lk_actuator_spec a;
      lk_model_actuator(m, i, &a);
      printf("  %s: %s on joint '%s'", a.name, lk_actuator_type_name(a.type), a.joint);
      if (a.type == LK_ACTUATOR_POSITION) printf(", kp %g, kv %g", a.kp, a.kv);
      if (a.type == LK_ACTUATOR_VELOCITY) printf(", kv %g", a.kv);
      if (a.nschedule > 0)
        printf(", schedule of %d points", a.nschedule);
      else
        printf(", target %g", a.target);
      if (isfinite(a.max_effort)) printf(", max effort %g", a.max_effort);
      printf("\n");
    }
  }
  if ((n = lk_model_nload(m)) > 0) {
    printf("loads:\n");
    for (int i = 0; i < n; i++) {
      lk_load_spec s;
      lk_model_load_spec(m, i, &s);
      printf("  %s%son '%s': force ", s.name ? s.name : "", s.name ? " " : "", s.link);
      vec(s.force);
      printf(", torque ");
      vec(s.torque);
      printf(" (%s frame) at ", s.frame == LK_FRAME_LINK ? "link" : "world");
      vec(s.point);
      printf(", t in [%g, %g)\n", s.start, s.end);
    }
  }
  if ((n = lk_model_ncontact(m)) > 0) {
    printf("contacts:\n");
    for (int i = 0; i < n; i++) {
      lk_contact_spec s;
      lk_model_contact(m, i, &s);
      printf("  %s%s%s contact: '%s' at ", s.name ? s.name : "", s.name ? ": " : "",
             s.type == LK_CONTACT_ROLLING ? "rolling" : "friction", s.link);
      vec(s.point);
      printf(" against '%s', normal ", s.other);
      vec(s.normal);
      printf(", material %s\n", s.material ? s.material : "default");
    }
  }
  int nlp = lk_model_nloop(m), nc = lk_model_ncoupling(m), nt = lk_model_ntether(m);
  if (nlp + nc + nt > 0) {
    printf("constraints:\n");
    for (int i = 0; i < nlp; i++) {
      lk_loop_spec s;
      lk_model_loop(m, i, &s);
      printf("  loop %s%s(%s): '%s' to '%s'\n", s.name ? s.name : "", s.name ? " " : "",
             loops[s.type], s.link_a, s.link_b);
    }
    for (int i = 0; i < nc; i++) {
      lk_coupling_spec s;
      lk_model_coupling(m, i, &s);
      printf("  coupling%s%s: %s = %g %s + %g\n", s.name ? " " : "", s.name ? s.name : "",
             s.joint_a, s.ratio, s.joint_b, s.offset);
    }
    for (int i = 0; i < nt; i++) {
      lk_tether_spec s;
      lk_model_tether(m, i, &s);
      printf("  tether %s%s'%s' to '%s', length %g m\n", s.name ? s.name : "", s.name ? " " : "",
             s.link, s.other, s.length);
    }
  }
  const lk_options *o = lk_model_options(m);
  printf("options: timestep %g s, gravity ", o->timestep);
  vec(o->gravity);
  printf(", integrator %s, solver %s, friction cone %s", o->integrator == LK_INTEGRATOR_RK4 ? "rk4" : "euler",
         o->solver == LK_SOLVER_DANTZIG ? "dantzig" : "lemke", cones[o->friction_cone]);
  if (o->friction_cone == LK_CONE_PYRAMID) printf(" (%d edges)", o->cone_edges);
  printf(", friction mix %s\n", mixes[o->friction_mix]);
  printf("nq %d, nv %d, total mass %g kg\n", lk_model_nq(m), lk_model_nv(m), lk_model_total_mass(m));
}

int lk_cmd_info(int argc, char **argv) {
  static const struct option longopts[] = {{"set", required_argument, NULL, 's'},
                                           {"package-path", required_argument, NULL, 'K'},
                                           LK_CLI_LOAD_LONGOPTS,
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  static const char *const names[] = {"set", "package-path", LK_CLI_LOAD_NAMES, "help", NULL};
  const char *set[256];
  int nset = 0, c;
  optind = 0;
  opterr = 0;
  while ((optopt = 0, c = getopt_long(argc, argv, ":s:h", longopts, NULL)) != -1) {
    switch (c) {
      case 'K':
        if (lk_cli_add_package_path("info", optarg)) return LK_EXIT_USAGE;
        break;
      case 's':
        if (nset == 256) return lk_cli_usage_error("info", "too many --set options (256 at most)");
        set[nset++] = optarg;
        break;
      case 'h':
        lk_cmd_info_usage(stdout);
        return LK_EXIT_OK;
      default:
        if (lk_cli_load_flag(c)) break;
        return lk_cli_bad_option("info", c, argv, optind, optopt, names);
    }
  }
  if (optind >= argc) return lk_cli_usage_error("info", "no mechanism file given");
  if (optind + 1 < argc) return lk_cli_usage_error("info", "one mechanism file at a time");
  lk_run_settings run;
  lk_model *m = lk_cli_load("info", argv[optind], set, nset, &run);
  if (!m) return LK_EXIT_USAGE;
  printf("%s", lk_model_name(m) ? lk_model_name(m) : argv[optind]);
  if (run.description[0]) printf(": %s", run.description);
  printf("\n\n");
  link_tree(m, 0, "", 1);
  printf("\n");
  elements(m);
  lk_model_free(m);
  return LK_EXIT_OK;
}
