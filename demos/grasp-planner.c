/* grasp-planner: rank grasps of one hand on one or many objects.
 *
 *   grasp-planner --hand mechanisms/jaw_gripper.yaml \
 *                 --object mechanisms/object_box.yaml -n 1000 --jobs 2 -o grasps.csv
 *   grasp-planner --hand mechanisms/jaw_gripper.yaml --objects mechanisms/ -o sweep.csv
 *   mpirun -np 8 grasp-planner --hand H --objects DIR -o sweep.csv
 *
 * For each object, in three phases:
 *  1. screen: n candidate hand poses drawn around the object (antipodal
 *     for a parallel jaw, along surface normals for other hands, or
 *     uniform: --sampler), each closed kinematically onto the still object
 *     and analysed: force closure and the Ferrari-Canny epsilon
 *     (lk_grasp_screen, thousands a second);
 *  2. refine: the best --refine candidates perturbed --rounds times each,
 *     keeping improvements of epsilon (lk_grasp_candidate_perturb);
 *  3. verify: the best --verify candidates by epsilon run as full dynamic
 *     trials (close, let go, lift, shake: lk_grasp_trial).
 * Ranking: the verified candidates first, held ones before the others,
 * then by the larger epsilon, then by the smaller slip (the object's
 * translation plus its rotation times its radius: how far a point of its
 * surface moved in the hand), then candidate order; then the unverified
 * ones, closed before the others, by epsilon, by candidate order. With
 * --rank load, the grip the trial's loads need (lk_grasp_load_force, the
 * smaller first) comes before epsilon in each of these, and refining keeps
 * a perturbation that ranks better so.
 *
 * Candidate i of an object draws from its own random stream (the seed and
 * i), the screens and trials are deterministic, and results are collected
 * by index: the CSV is byte for byte the same for any --jobs and, under
 * mpirun, any number of ranks (rank 0 hands out work on request and
 * writes everything).
 *
 * Uses only the public API (linkage/linkage.h) and pool.h. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linkage/linkage.h"
#include "pool.h"

#define CONTACT_CAP 512
#define MAX_OBJECTS 4096
#define MAX_JOBS 256

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* ------------------------------------------------------------ records */

typedef struct {
  lk_grasp_candidate c;
  lk_grasp_screen_report s;
  lk_status st;           /* of the screen */
} screened;

typedef struct {
  lk_grasp_trial_report r;
  lk_status st;
} verified;

/* What the phases' workers need: one object's scene and per-thread data. */
typedef struct {
  const lk_grasp_scene *scene;
  const lk_grasp_sampler *sampler;
  const lk_grasp_screener *screener;
  const lk_grasp_trial_options *trial;
  lk_data *d[MAX_JOBS];
  lk_grasp_contact *contacts[MAX_JOBS];
  int rounds;
  double translation, rotation;
  const lk_force *loads; /* --reclose: the trials' loads */
  int nloads;
} phase_ctx;

/* ---------------------------------------------------------- arguments */

typedef struct {
  const char *hand, *output, *objects_arg;
  const char *view, *plot; /* --view page, --plot summary (NULL: none) */
  long view_top;
  const char *objects[MAX_OBJECTS];
  int nobjects;
  char *owned[MAX_OBJECTS]; /* the paths --objects made */
  int nowned;
  long n, jobs, verify, refine, rounds;
  unsigned long long seed;
  double smin, smax;
  lk_grasp_sample_kind sampler;
  int quiet;
  const char *hset[64], *oset[64];
  int nh, no;
  lk_grasp_trial_options trial;
  int edges;
  double mass; /* --mass: of the objects given as mesh files, kg */
  int keep_hull; /* --keep-hull: a single non-convex part stays its hull */
  char package_path[8192]; /* --package-path's directories, ':' separated */
  int strict_meshes;       /* --strict-meshes */
  int keep_rest_overlaps;  /* --keep-rest-overlaps */
  const char *palm;        /* --palm: a link of the hand file, or NULL */
  lk_vec3 approach;        /* --approach, the palm's frame; zero: -z */
  const char *closing[64]; /* --closing JOINT=+1|-1 */
  int nclosing;
  double soft_fingers;     /* --soft-fingers: a patch radius, m; 0: off */
  int rank_load;           /* --rank load: by the grip the trial's loads need */
  long reclose;            /* --reclose K: the best K closed again dynamically */
} args;

static void usage(FILE *f) {
  fprintf(f,
          "usage: grasp-planner --hand HAND --object OBJECT [options]\n"
          "       grasp-planner --hand HAND --objects LIST|DIR [options]\n"
          "\n"
          "Rank grasps of a hand on objects: screen candidate hand poses analytically\n"
          "(kinematic closing, force closure, Ferrari-Canny epsilon), refine the best,\n"
          "and verify the best by dynamic trials (close, lift, shake). Writes one CSV\n"
          "row per candidate (object, rank, pose, analysis, trial) and a summary to\n"
          "stderr.\n"
          "\n"
          "  --hand FILE           the hand (mechanism file)\n"
          "  --object FILE         an object (repeatable): a mechanism file, or a mesh\n"
          "                        file (STL, OBJ, ...: not .yaml, .urdf or .xml), the\n"
          "                        object then its parts' convex hulls\n"
          "  --objects LIST|DIR    objects: a file listing one path per line (relative\n"
          "                        to the list), or every .yaml, .stl and .obj file of\n"
          "                        a directory\n"
          "  --mass KG             the mass of the objects given as mesh files\n"
          "                        (required with one)\n"
          "  --keep-hull           a mesh file of one non-convex part is its convex\n"
          "                        hull (default: its convex parts, lk_mesh_decompose,\n"
          "                        with a warning giving what the hull would add)\n"
          "  -n, --candidates N    candidates screened per object (default 1000)\n"
          "  --verify K            best candidates verified by a trial (default 16)\n"
          "  --refine R            best candidates refined after screening (default 8)\n"
          "  --rounds M            perturbations tried per refined candidate (default 16)\n"
          "  --rank KEY            epsilon (default) or load: closed candidates ranked by\n"
          "                        the grip the trial's loads need (weight with the lift's\n"
          "                        acceleration, the shakes; lk_grasp_load_force), the\n"
          "                        smaller first, then by epsilon\n"
          "  --reclose K           close the best K again with the trial's dynamic closing\n"
          "                        and rank them by the grip the trial's loads need on the\n"
          "                        contacts it leaves (implies --rank load; default 0)\n"
          "  --sampler KIND        auto (default: antipodal for a parallel jaw, else\n"
          "                        surface), uniform, surface, antipodal\n"
          "  -j, --jobs J          threads per process (default 1)\n"
          "  -s, --seed S          random seed (default 1)\n"
          "  -o, --output FILE     the ranked CSV (default and '-': standard output)\n"
          "  --view FILE.html      a viewer page replaying the trials of the best\n"
          "                        verified grasps of each object (close, lift, shake)\n"
          "  --view-top N          grasps per object on the page (default 3)\n"
          "  --plot FILE.svg       a summary plot: every candidate's epsilon by outcome\n"
          "  --standoff MIN:MAX    palm distance range, m (uniform and surface sampling;\n"
          "                        default 0.5 to 1.0 times the fingers' reach)\n"
          "  --grip-force F        finger force of the trials, N (default 10)\n"
          "  --lift H              lift height of the trials, m (default 0.1)\n"
          "  --shake-force F       disturbance force, N (default: the object's weight)\n"
          "  --shake-torque T      disturbance torque, N m (default: weight x radius / 2)\n"
          "  --edges K             friction cone edges of the analysis (default 8)\n"
          "  --set-hand KEY=VALUE  override in the hand file (repeatable)\n"
          "  --palm LINK           the hand's palm (default: the root link); joints\n"
          "                        between the root and it (a wrist) are held\n"
          "  --approach X,Y,Z      the hand's approach direction in the palm's frame\n"
          "                        (default 0,0,-1: fingers below the palm)\n"
          "  --closing JOINT=+1|-1 the direction a finger joint closes in (repeatable;\n"
          "                        default: read from the hand)\n"
          "  --soft-fingers A      soft-finger contacts: a patch of radius A (m) resists\n"
          "                        a twist about the normal, in screening and trials\n"
          "                        (default 0: the files' contacts)\n"
          "  --package-path DIR    look for a URDF's package:// files in DIR\n"
          "                        (repeatable; then in $ROS_PACKAGE_PATH)\n"
          "  --strict-meshes       a URDF collision mesh that is not found is an error\n"
          "                        (default: that shape is left out, with a warning)\n"
          "  --keep-rest-overlaps  URDF links whose shapes overlap with every joint at 0\n"
          "                        collide too (default: never with each other)\n"
          "  --set-object KEY=VALUE  override in the object mechanism files (repeatable)\n"
          "  -q, --quiet           no progress bar and no summary\n"
          "  -h, --help            show this help\n"
          "\n"
          "Under mpirun every rank runs the same command; rank 0 hands out the work\n"
          "and writes the output, which is the same for any number of ranks and jobs.\n"
          "The CSV (and the page and the plot) replace their files when the sweep is\n"
          "complete, or none is written.\n"
          "SIGINT, SIGTERM or SIGHUP stop the sweep and leave the old file.\n"
          "Exit status: 0 success, 1 a trial or an output failed, 2 a usage error or an\n"
          "invalid hand or object file, 129, 130, 143 stopped by SIGHUP, SIGINT, SIGTERM.\n");
}

/* The files' number rule (lk_parse_double): no hex, inf, nan or blanks. */
static int parse_double(const char *s, double *out) {
  lk_error e;
  return lk_parse_double(s, out, &e) == LK_OK;
}

static int parse_long(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

static int is_dir(const char *path) {
  DIR *d = opendir(path);
  if (!d) return 0;
  closedir(d);
  return 1;
}

/* Mechanism files by their ending; any other file is a mesh. */
static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), k = strlen(tail);
  return n > k && strcasecmp(s + n - k, tail) == 0;
}

static int is_mesh_file(const char *path) {
  return !ends_with(path, ".yaml") && !ends_with(path, ".yml") && !ends_with(path, ".urdf") &&
         !ends_with(path, ".xml");
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The objects of --objects: a directory's .yaml files in name order, or a
 * list file's lines (blank lines and # comments skipped; relative paths
 * against the list's folder). The strings live until exit. */
static int add_objects(args *a, const char *arg) {
  if (is_dir(arg)) {
    DIR *d = opendir(arg);
    struct dirent *e;
    int first = a->nobjects;
    while ((e = readdir(d))) {
      size_t len = strlen(e->d_name);
      if (!ends_with(e->d_name, ".yaml") && !ends_with(e->d_name, ".stl") &&
          !ends_with(e->d_name, ".obj"))
        continue;
      if (a->nobjects == MAX_OBJECTS) break;
      char *p = malloc(strlen(arg) + len + 2);
      if (!p) break;
      sprintf(p, "%s/%s", arg, e->d_name);
      a->objects[a->nobjects++] = a->owned[a->nowned++] = p;
    }
    closedir(d);
    qsort(a->objects + first, (size_t)(a->nobjects - first), sizeof *a->objects, by_name);
    if (a->nobjects == first) {
      fprintf(stderr, "grasp-planner: --objects %s: no .yaml, .stl or .obj files there\n", arg);
      return 0;
    }
    return 1;
  }
  FILE *f = fopen(arg, "r");
  if (!f) {
    fprintf(stderr, "grasp-planner: --objects %s: %s\n", arg, strerror(errno));
    return 0;
  }
  const char *slash = strrchr(arg, '/');
  size_t dirlen = slash ? (size_t)(slash - arg) + 1 : 0;
  char line[4096];
  int first = a->nobjects;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '#') continue;
    if (a->nobjects == MAX_OBJECTS) break;
    char *p = malloc(dirlen + strlen(s) + 1);
    if (!p) break;
    if (*s == '/')
      strcpy(p, s);
    else
      sprintf(p, "%.*s%s", (int)dirlen, arg, s);
    a->objects[a->nobjects++] = a->owned[a->nowned++] = p;
  }
  fclose(f);
  if (a->nobjects == first) {
    fprintf(stderr, "grasp-planner: --objects %s: the list names no object\n", arg);
    return 0;
  }
  return 1;
}

/* 0 to go on, else the exit status (-1: --help). */
static int parse_args(int argc, char **argv, args *a) {
  memset(a, 0, sizeof *a);
  a->n = 1000;
  a->jobs = 1;
  a->verify = 16;
  a->refine = 8;
  a->rounds = 16;
  a->seed = 1;
  a->smin = a->smax = -1;
  a->sampler = LK_SAMPLE_AUTO;
  a->edges = 8;
  a->view_top = 3;
  lk_grasp_trial_options_default(&a->trial);
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED()                                                       \
  do {                                                               \
    if (!v) {                                                        \
      fprintf(stderr, "grasp-planner: %s needs a value\n", o);       \
      return EXIT_USAGE;                                             \
    }                                                                \
    i++;                                                             \
  } while (0)
#define LONG(dst, lo, hi)                                                             \
  do {                                                                                \
    NEED();                                                                           \
    if (!parse_long(v, lo, hi, &(dst))) {                                             \
      fprintf(stderr, "grasp-planner: %s: expected %ld..%ld, got '%s'\n", o, (long)(lo), \
              (long)(hi), v);                                                         \
      return EXIT_USAGE;                                                              \
    }                                                                                 \
  } while (0)
#define NUMBER(dst)                                                          \
  do {                                                                       \
    NEED();                                                                  \
    if (!parse_double(v, &(dst))) {                                          \
      fprintf(stderr, "grasp-planner: %s: '%s' is not a number\n", o, v);    \
      return EXIT_USAGE;                                                     \
    }                                                                        \
  } while (0)
    if (!strcmp(o, "--hand")) {
      NEED();
      a->hand = v;
    } else if (!strcmp(o, "--object")) {
      NEED();
      if (a->nobjects == MAX_OBJECTS) return EXIT_USAGE;
      a->objects[a->nobjects++] = v;
    } else if (!strcmp(o, "--objects")) {
      NEED();
      a->objects_arg = v;
      if (!add_objects(a, v)) return EXIT_USAGE;
    } else if (!strcmp(o, "-n") || !strcmp(o, "--candidates")) {
      LONG(a->n, 1, 10000000);
    } else if (!strcmp(o, "--verify")) {
      LONG(a->verify, 0, 1000000);
    } else if (!strcmp(o, "--refine")) {
      LONG(a->refine, 0, 1000000);
    } else if (!strcmp(o, "--rounds")) {
      LONG(a->rounds, 0, 100000);
    } else if (!strcmp(o, "-j") || !strcmp(o, "--jobs")) {
      LONG(a->jobs, 1, MAX_JOBS);
    } else if (!strcmp(o, "-s") || !strcmp(o, "--seed")) {
      NEED();
      char *end;
      errno = 0;
      a->seed = strtoull(v, &end, 10);
      if (errno || end == v || *end || *v == '-') {
        fprintf(stderr, "grasp-planner: %s: expected an integer >= 0, got '%s'\n", o, v);
        return EXIT_USAGE;
      }
    } else if (!strcmp(o, "-o") || !strcmp(o, "--output")) {
      NEED();
      if (!*v) {
        fprintf(stderr, "grasp-planner: %s: empty file name\n", o);
        return EXIT_USAGE;
      }
      a->output = v;
    } else if (!strcmp(o, "--view") || !strcmp(o, "--plot")) {
      NEED();
      if (!*v) {
        fprintf(stderr, "grasp-planner: %s: empty file name\n", o);
        return EXIT_USAGE;
      }
      if (o[2] == 'v')
        a->view = v;
      else
        a->plot = v;
    } else if (!strcmp(o, "--view-top")) {
      LONG(a->view_top, 1, 1000);
    } else if (!strcmp(o, "--reclose")) {
      LONG(a->reclose, 0, 1000000);
      if (a->reclose > 0) a->rank_load = 1;
    } else if (!strcmp(o, "--rank")) {
      NEED();
      if (strcmp(v, "epsilon") && strcmp(v, "load")) {
        fprintf(stderr, "grasp-planner: --rank: expected epsilon or load, got '%s'\n", v);
        return EXIT_USAGE;
      }
      a->rank_load = !strcmp(v, "load");
    } else if (!strcmp(o, "--sampler")) {
      NEED();
      int k = lk_grasp_sample_kind_from_name(v);
      if (k < 0) {
        fprintf(stderr,
                "grasp-planner: --sampler: expected auto, uniform, surface or antipodal, got "
                "'%s'\n",
                v);
        return EXIT_USAGE;
      }
      a->sampler = (lk_grasp_sample_kind)k;
    } else if (!strcmp(o, "--standoff")) {
      NEED();
      char lo[64];
      const char *colon = strchr(v, ':');
      size_t nlo = colon ? (size_t)(colon - v) : 0;
      if (colon && nlo < sizeof lo) memcpy(lo, v, nlo);
      if (!colon || nlo >= sizeof lo || (lo[nlo] = '\0', !parse_double(lo, &a->smin)) ||
          !parse_double(colon + 1, &a->smax) || !(a->smin >= 0) ||
          !(a->smax >= a->smin)) {
        fprintf(stderr, "grasp-planner: --standoff: expected MIN:MAX with 0 <= MIN <= MAX\n");
        return EXIT_USAGE;
      }
    } else if (!strcmp(o, "--grip-force")) {
      NUMBER(a->trial.grip_force);
    } else if (!strcmp(o, "--lift")) {
      NUMBER(a->trial.lift_height);
    } else if (!strcmp(o, "--shake-force")) {
      NUMBER(a->trial.shake_force);
    } else if (!strcmp(o, "--shake-torque")) {
      NUMBER(a->trial.shake_torque);
    } else if (!strcmp(o, "--mass")) {
      NUMBER(a->mass);
      if (!(a->mass > 0)) {
        fprintf(stderr, "grasp-planner: --mass: expected a mass > 0, got '%s'\n", v);
        return EXIT_USAGE;
      }
    } else if (!strcmp(o, "--soft-fingers")) {
      NUMBER(a->soft_fingers);
      if (!(a->soft_fingers >= 0) || !isfinite(a->soft_fingers)) {
        fprintf(stderr, "grasp-planner: --soft-fingers: expected a radius >= 0, got '%s'\n", v);
        return EXIT_USAGE;
      }
    } else if (!strcmp(o, "--keep-hull")) {
      a->keep_hull = 1;
    } else if (!strcmp(o, "--edges")) {
      long e;
      LONG(e, 3, 64);
      a->edges = (int)e;
    } else if (!strcmp(o, "--set-hand") || !strcmp(o, "--set-object")) {
      NEED();
      int hand = o[6] == 'h';
      if ((hand ? a->nh : a->no) == 64) {
        fprintf(stderr, "grasp-planner: too many %s\n", o);
        return EXIT_USAGE;
      }
      if (hand)
        a->hset[a->nh++] = v;
      else
        a->oset[a->no++] = v;
    } else if (!strcmp(o, "--closing")) {
      NEED();
      const char *eq = strrchr(v, '=');
      if (!eq || eq == v || (strcmp(eq, "=+1") && strcmp(eq, "=1") && strcmp(eq, "=-1"))) {
        fprintf(stderr, "grasp-planner: --closing '%s': expected JOINT=+1 or JOINT=-1\n", v);
        return EXIT_USAGE;
      }
      if (a->nclosing == (int)(sizeof a->closing / sizeof a->closing[0])) {
        fprintf(stderr, "grasp-planner: too many --closing\n");
        return EXIT_USAGE;
      }
      a->closing[a->nclosing++] = v;
    } else if (!strcmp(o, "--palm")) {
      NEED();
      a->palm = v;
    } else if (!strcmp(o, "--approach")) {
      NEED();
      /* three numbers by the files' rule, comma separated, not all zero */
      char buf[256];
      double x[3];
      int ok = strlen(v) < sizeof buf;
      if (ok) snprintf(buf, sizeof buf, "%s", v);
      char *p = buf;
      for (int k = 0; ok && k < 3; k++) {
        char *comma = strchr(p, ',');
        if ((k < 2) != (comma != NULL)) ok = 0;
        if (comma) *comma = '\0';
        ok = ok && parse_double(p, &x[k]);
        p = comma ? comma + 1 : p;
      }
      if (!ok || (x[0] == 0 && x[1] == 0 && x[2] == 0)) {
        fprintf(stderr, "grasp-planner: --approach '%s': expected X,Y,Z, a direction in the "
                        "palm's frame (not 0,0,0)\n", v);
        return EXIT_USAGE;
      }
      a->approach = lk_v3(x[0], x[1], x[2]);
    } else if (!strcmp(o, "--package-path")) {
      NEED();
      size_t n = strlen(a->package_path);
      if (n + strlen(v) + 2 > sizeof a->package_path) {
        fprintf(stderr, "grasp-planner: --package-path: the directories are too long together\n");
        return EXIT_USAGE;
      }
      snprintf(a->package_path + n, sizeof a->package_path - n, "%s%s", n ? ":" : "", v);
    } else if (!strcmp(o, "--strict-meshes")) {
      a->strict_meshes = 1;
    } else if (!strcmp(o, "--keep-rest-overlaps")) {
      a->keep_rest_overlaps = 1;
    } else if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
      a->quiet = 1;
    } else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
      usage(stdout);
      return -1;
    } else {
      fprintf(stderr, "grasp-planner: unknown argument '%s'\n", o);
      usage(stderr);
      return EXIT_USAGE;
    }
  }
  if (!a->hand || a->nobjects == 0) {
    fprintf(stderr, "grasp-planner: %s\n", !a->hand ? "--hand is required"
                                                     : "--object or --objects is required");
    usage(stderr);
    return EXIT_USAGE;
  }
  /* Only regular files: opening a FIFO would wait for a writer forever
   * (a FIFO in --objects DIR), and a directory or device is no object. */
  for (int k = -1; k < a->nobjects; k++) {
    const char *p = k < 0 ? a->hand : a->objects[k];
    struct stat sb;
    if (stat(p, &sb) == 0 && !S_ISREG(sb.st_mode)) {
      fprintf(stderr, "grasp-planner: %s: %s, not a regular file\n", p,
              S_ISFIFO(sb.st_mode)  ? "is a FIFO (a named pipe)"
              : S_ISDIR(sb.st_mode) ? "is a directory"
              : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "is a device"
                                                           : "is not a regular file");
      return EXIT_USAGE;
    }
  }
  for (int k = 0; k < a->nobjects; k++)
    if (is_mesh_file(a->objects[k]) && !(a->mass > 0)) {
      fprintf(stderr, "grasp-planner: %s is a mesh file: give the object's mass with --mass KG\n",
              a->objects[k]);
      return EXIT_USAGE;
    }
  a->trial.analysis.edges = a->edges;
  return 0;
}

/* -------------------------------------------------------------- phases */

/* SIGINT, SIGTERM or SIGHUP: the items still to do are skipped (the
 * phases drain at once), then main removes the output's temporary, keeps
 * the old file and exits 128 + the signal. */
static volatile sig_atomic_t g_signal;

static void on_signal(int sig) {
  if (!g_signal) g_signal = sig;
}

static void catch_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  /* A file size limit is a write error (EFBIG) to report, not a kill that
   * leaves the temporary behind. */
  signal(SIGXFSZ, SIG_IGN);
}

static void screen_one(void *vctx, int thread, const void *in, void *out) {
  phase_ctx *x = vctx;
  screened *r = out;
  if (g_signal) {
    memset(r, 0, sizeof *r);
    r->st = LK_NOT_CONVERGED;
    return;
  }
  r->c = *(const lk_grasp_candidate *)in;
  lk_error e;
  r->st = lk_grasp_screen(x->screener, x->d[thread], &r->c.pose, NULL, &r->s,
                          x->contacts[thread], CONTACT_CAP, &e);
}

static int g_rank_load; /* --rank load */

static int screen_better(const screened *a, const screened *b) {
  int ca = !a->st && a->s.outcome == LK_SCREEN_CLOSED, cb = !b->st && b->s.outcome == LK_SCREEN_CLOSED;
  if (ca != cb) return ca > cb;
  /* --rank load: the smaller grip for the trial's loads first */
  if (g_rank_load && ca && a->s.load_force != b->s.load_force)
    return a->s.load_force < b->s.load_force;
  double ea = a->st ? 0 : a->s.epsilon, eb = b->st ? 0 : b->s.epsilon;
  if (ea != eb) return ea > eb;
  /* Then the more fingers on the object (a two-point pinch that is not
   * force closure before a collision): what to verify when few close. */
  int fa = a->st ? 0 : a->s.fingers_in_contact, fb = b->st ? 0 : b->s.fingers_in_contact;
  if (fa != fb) return fa > fb;
  return a->c.index < b->c.index;
}

static void refine_one(void *vctx, int thread, const void *in, void *out) {
  phase_ctx *x = vctx;
  screened best = *(const screened *)in;
  for (int k = 1; k <= x->rounds && !g_signal; k++) {
    screened t;
    lk_error e;
    if (lk_grasp_candidate_perturb(x->sampler, &best.c, k, x->translation, x->rotation, &t.c, &e))
      break;
    t.st = lk_grasp_screen(x->screener, x->d[thread], &t.c.pose, NULL, &t.s, x->contacts[thread],
                           CONTACT_CAP, &e);
    int closed = !t.st && t.s.outcome == LK_SCREEN_CLOSED;
    if (closed && (g_rank_load ? screen_better(&t, &best) : t.s.epsilon > best.s.epsilon))
      best = t;
  }
  *(screened *)out = best;
}

/* --reclose: the candidate closed by the trial's own closing (the jaws
 * push the object as they centre it); its load force then from the
 * contacts that closing leaves, about the object's centre of mass where it
 * is (INFINITY when the closing fails or leaves no contact). */
static void reclose_one(void *vctx, int thread, const void *in, void *out) {
  phase_ctx *x = vctx;
  screened *r = out;
  *r = *(const screened *)in;
  if (g_signal) return;
  const lk_model *m = lk_grasp_scene_model(x->scene);
  lk_data *d = x->d[thread];
  lk_error e;
  lk_grasp_trial_report tr;
  memset(&tr, 0, sizeof tr);
  double f = INFINITY;
  if (!lk_grasp_place(x->scene, d, &r->c.pose, NULL, &e) &&
      !lk_grasp_close(x->scene, d, x->trial, &tr, &e)) {
    lk_grasp_extract_options eo;
    lk_grasp_extract_options_default(&eo);
    eo.object = lk_grasp_scene_object(x->scene);
    eo.finger_of_link = lk_grasp_scene_finger_of_link(x->scene);
    int nc = lk_grasp_contacts_from_data(m, d, &eo, x->contacts[thread], NULL, CONTACT_CAP);
    lk_link_spec ls;
    lk_model_link(m, eo.object, &ls);
    lk_grasp_options ao = x->trial->analysis;
    ao.center = lk_tf_point(lk_data_link_pose(d, eo.object), ls.com);
    ao.torque_scale = lk_grasp_scene_object_radius(x->scene);
    if (nc <= 0 || nc > CONTACT_CAP ||
        lk_grasp_load_force(x->contacts[thread], nc, &ao, x->loads, x->nloads, &f, NULL, NULL))
      f = INFINITY;
  }
  r->s.load_force = f;
}

static void verify_one(void *vctx, int thread, const void *in, void *out) {
  phase_ctx *x = vctx;
  const screened *s = in;
  verified *v = out;
  lk_error e;
  memset(v, 0, sizeof *v);
  if (g_signal) {
    v->st = LK_NOT_CONVERGED;
    return;
  }
  v->st = lk_grasp_trial(x->scene, x->d[thread], &s->c.pose, NULL, x->trial, &v->r, &e);
}

/* ------------------------------------------------------------- ranking */

typedef struct {
  screened s;
  int verified;
  verified v;
} row;

static double g_radius; /* the object's radius, for the slip measure */

static double slip_of(const row *r) {
  return r->v.r.slip_translation + g_radius * r->v.r.slip_rotation;
}

static int row_better(const row *a, const row *b) {
  if (a->verified != b->verified) return a->verified > b->verified;
  if (a->verified) {
    int ha = !a->v.st && a->v.r.held, hb = !b->v.st && b->v.r.held;
    if (ha != hb) return ha > hb;
    if (g_rank_load && a->s.s.load_force != b->s.s.load_force)
      return a->s.s.load_force < b->s.s.load_force;
    if (a->s.s.epsilon != b->s.s.epsilon) return a->s.s.epsilon > b->s.s.epsilon;
    double sa = slip_of(a), sb = slip_of(b);
    if (sa != sb) return sa < sb;
    return a->s.c.index < b->s.c.index;
  }
  return screen_better(&a->s, &b->s);
}

static int row_cmp(const void *pa, const void *pb) {
  const row *a = pa, *b = pb;
  if (row_better(a, b)) return -1;
  if (row_better(b, a)) return 1;
  return 0;
}

static int screen_cmp(const void *pa, const void *pb) {
  const screened *a = pa, *b = pb;
  if (screen_better(a, b)) return -1;
  if (screen_better(b, a)) return 1;
  return 0;
}

/* Spearman's rank correlation of x and y (average ranks for ties); NAN
 * when either is constant or n < 2. */
static double spearman(const double *x, const double *y, int n) {
  if (n < 2) return NAN;
  double *rx = malloc(sizeof(double) * (size_t)n), *ry = malloc(sizeof(double) * (size_t)n);
  if (!rx || !ry) {
    free(rx);
    free(ry);
    return NAN;
  }
  const double *v[2] = {x, y};
  double *r[2] = {rx, ry};
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < n; i++) {
      int below = 0, equal = 0;
      for (int j = 0; j < n; j++) {
        below += v[k][j] < v[k][i];
        equal += v[k][j] == v[k][i];
      }
      r[k][i] = below + 0.5 * (equal + 1);
    }
  double mx = 0, my = 0;
  for (int i = 0; i < n; i++) {
    mx += rx[i] / n;
    my += ry[i] / n;
  }
  double sxy = 0, sxx = 0, syy = 0;
  for (int i = 0; i < n; i++) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  free(rx);
  free(ry);
  return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* ----------------------------------------------------------------- CSV */

/* Numbers as every file of the project writes them (lk_format_double). */
/* A number of the CSV: shortest round trip; a negative zero (a pose
 * component rounded through a rotation) written as 0, which it equals. */
static const char *num(char *buf, double x) { return lk_format_double(x == 0 ? 0.0 : x, buf); }

static const char *kHeader =
    "object,rank,candidate,round,screen,fingers_in_contact,contacts,force_closure,epsilon,"
    "approach_x,approach_y,approach_z,roll,standoff,px,py,pz,qw,qx,qy,qz,"
    "verified,held,outcome,lost_in,trial_fingers_in_contact,trial_contacts,trial_epsilon,"
    "volume,min_force,slip_translation,slip_rotation,peak_utilization,slip_flags,close_time\n";

static void write_rows(FILE *f, const char *object, const row *rows, int n) {
  static const char *const phases[] = {"close", "release", "lift", "shake", "-"};
  char b[16][LK_FORMAT_DOUBLE_MAX];
  for (int k = 0; k < n; k++) {
    const row *r = &rows[k];
    const lk_grasp_candidate *c = &r->s.c;
    const lk_grasp_screen_report *s = &r->s.s;
    fprintf(f, "%s,%d,%d,%d,%s,%d,%d,%d,%s,", object, k + 1, c->index, c->round,
            r->s.st ? "error" : lk_screen_outcome_name(s->outcome), s->fingers_in_contact,
            s->ncontacts, s->force_closure, num(b[0], s->epsilon));
    fprintf(f, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,", num(b[0], c->approach.x),
            num(b[1], c->approach.y), num(b[2], c->approach.z), num(b[3], c->roll),
            num(b[4], c->standoff), num(b[5], c->pose.p.x), num(b[6], c->pose.p.y),
            num(b[7], c->pose.p.z), num(b[8], c->q.w), num(b[9], c->q.x), num(b[10], c->q.y),
            num(b[11], c->q.z));
    if (!r->verified) {
      fprintf(f, "0,,,,,,,,,,,,,,\n");
      continue;
    }
    const lk_grasp_trial_report *t = &r->v.r;
    fprintf(f, "1,%d,%s,%s,%d,%d,%s,%s,%s,%s,%s,%s,%u,%s\n", t->held,
            r->v.st ? "error" : lk_grasp_outcome_name(t->outcome), phases[t->lost_in],
            t->fingers_in_contact, t->ncontacts, num(b[0], t->epsilon), num(b[1], t->volume),
            num(b[2], t->min_force), num(b[3], t->slip_translation),
            num(b[4], t->slip_rotation), num(b[5], t->peak_utilization), t->slip_flags,
            num(b[6], t->close_time));
  }
}

/* ------------------------------------------------- viewer page and plot */

/* The page (--view): the best --view-top verified grasps of each object,
 * each a scene replaying its trial. Rank 0 runs those trials again with an
 * observer that records frames (60 a simulated second, each with the
 * solver reports of the steps since the last, the last one at the trial's
 * end; and, as linkage simulate --view does, one between two at the first
 * step where contact changed: a finger landing on the object): a trial is
 * deterministic, so the replay is the verified trial, and it is checked to
 * be (the same outcome, steps and epsilon). */
typedef struct {
  lk_view *v;
  int scene;
  const lk_model *m;
  long pending; /* steps since the last frame */
  int started;
  lk_status st;
  lk_error e;
  int pressing, sliding; /* contacts carrying force, and sliding, last step */
  int event_room;        /* no frame at a contact change since the last due one */
} recorder;

/* An error of this program's own (lk_error_set is the library's). */
static lk_status fail(lk_error *err, lk_status st, const char *fmt, ...) {
  va_list ap;
  lk_error_clear(err);
  err->status = st;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return st;
}

static void record(void *user, const lk_data *d, int phase) {
  recorder *r = user;
  (void)phase;
  if (r->st) return;
  int event = 0;
  if (r->started) {
    lk_view_add_step(r->v, r->scene, d);
    r->pending++;
    int np = 0, ns = 0;
    for (int i = 0, nc = lk_data_ncontacts(d); i < nc; i++) {
      const lk_contact_report *c = lk_data_contact_report(d, i);
      np += c->fn > 0;
      ns += c->fn > 0 && c->state == LK_FRICTION_DYNAMIC;
    }
    event = np > r->pressing || ns != r->sliding;
    r->pressing = np, r->sliding = ns;
  }
  r->started = 1;
  int due = lk_view_frame_due(r->v, r->scene, lk_data_time(d));
  if (due || (event && r->event_room)) {
    r->st = lk_view_add_frame(r->v, r->scene, r->m, d, &r->e);
    r->pending = 0;
    r->event_room = due;
  }
}

/* Replay row r's trial (object `name`, its rank) into a new scene of v.
 * Nonzero (a message in err) on a failure or a replay that differs. */
static lk_status view_grasp(lk_view *v, const lk_grasp_scene *scene, lk_data *d,
                            const lk_grasp_trial_options *trial, const char *name, int rank,
                            const row *r, lk_error *err) {
  const lk_model *m = lk_grasp_scene_model(scene);
  const lk_grasp_trial_report *t = &r->v.r;
  char title[320], caption[512];
  snprintf(title, sizeof title, "%s #%d", name, rank);
  snprintf(caption, sizeof caption,
           "%s, rank %d: candidate %d (round %d), epsilon %.4g; trial: %s%s%s, epsilon %.4g, "
           "%d steps (%.3f s)",
           name, rank, r->s.c.index, r->s.c.round, r->s.s.epsilon,
           lk_grasp_outcome_name(t->outcome), t->held ? "" : " in the ",
           t->held ? "" : (const char *[]){"close", "release", "lift", "shake", ""}[t->lost_in],
           t->epsilon, t->steps, t->time);
  recorder rec = {v, -1, m, 0, 0, LK_OK, {0}, 0, 0, 1};
  if ((rec.scene = lk_view_add_scene(v, m, title, caption, err)) < 0) return err->status;
  lk_grasp_trial_options o = *trial;
  o.observe = record;
  o.observe_user = &rec;
  lk_grasp_trial_report again;
  lk_status st = lk_grasp_trial(scene, d, &r->s.c.pose, NULL, &o, &again, err);
  if (st) return st;
  if (rec.st) {
    *err = rec.e;
    return rec.st;
  }
  /* The trial's end (or, for a hand placed into the object, its pose). */
  if ((st = lk_forward_kinematics(m, d)))
    return fail(err, st, "%s: the replayed state is not valid", title);
  if ((lk_view_nframes(v, rec.scene) == 0 || rec.pending > 0) &&
      (st = lk_view_add_frame(v, rec.scene, m, d, err)))
    return st;
  if (again.outcome != t->outcome || again.steps != t->steps || again.held != t->held ||
      !(again.epsilon == t->epsilon))
    return fail(err, LK_INVALID_ARGUMENT,
                        "%s: the replayed trial differs from the verified one (%s in %d steps, "
                        "was %s in %d)",
                        title, lk_grasp_outcome_name(again.outcome), again.steps,
                        lk_grasp_outcome_name(t->outcome), t->steps);
  return LK_OK;
}

/* The plot (--plot): every candidate's screening epsilon, in a row by its
 * outcome: the trial's for the verified ones, else the screen's. */
enum { P_HELD, P_DROPPED, P_TRIAL_FAILED, P_UNVERIFIED, P_NOT_CLOSED, P_NO_CONTACT, P_COLLISION,
       P_ERROR, P_ROWS };
static const char *const kPlotRows[P_ROWS] = {
    "held", "dropped", "trial: no contact, collision", "closed, unverified", "not closed",
    "no contact", "collision", "error, failed step"};

static int plot_row(const row *r) {
  if (r->verified) {
    if (r->v.st) return P_ERROR;
    switch (r->v.r.outcome) {
      case LK_GRASP_HELD: return P_HELD;
      case LK_GRASP_DROPPED: return P_DROPPED;
      case LK_GRASP_SIM_FAILED: return P_ERROR;
      default: return P_TRIAL_FAILED; /* collision, no contact */
    }
  }
  if (r->s.st) return P_ERROR;
  switch (r->s.s.outcome) {
    case LK_SCREEN_CLOSED: return P_UNVERIFIED;
    case LK_SCREEN_NOT_CLOSED: return P_NOT_CLOSED;
    case LK_SCREEN_NO_CONTACT: return P_NO_CONTACT;
    default: return P_COLLISION;
  }
}

/* ------------------------------------------------------------ progress */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* One bar for the whole sweep on rank 0's stderr, as `linkage simulate`
 * draws it, with the time left estimated from the work done: a screen
 * counts 1, a refined candidate its rounds, a trial kTrialWeight (what a
 * trial costs in screens, measured on the shipped hands). */
enum { kTrialWeight = 300 };

typedef struct {
  int enabled, shown;
  double start, last;
  double total, base, weight; /* whole sweep; before this phase; per item */
  int object, nobjects;
} bar;

static void bar_draw(void *pb, int done) {
  bar *b = pb;
  if (!b->enabled) return;
  double w = now();
  if (w - b->start < 0.5 || w - b->last < 0.1) return;
  b->last = w;
  b->shown = 1;
  double f = b->total > 0 ? (b->base + b->weight * done) / b->total : 1;
  if (f > 1) f = 1;
  int width = 30, fill = (int)(f * width);
  char s[40];
  for (int i = 0; i < width; i++) s[i] = i < fill ? '#' : '.';
  s[width] = 0;
  double eta = f > 0 ? (w - b->start) * (1 - f) / f : 0;
  fprintf(stderr, "\r[%s] %3d%%  object %d/%d  (%.0f s left) ", s, (int)(100 * f), b->object + 1,
          b->nobjects, eta);
  fflush(stderr);
}

static void bar_clear(bar *b) {
  if (b->shown) fprintf(stderr, "\r\033[K");
  b->shown = 0;
}

/* ---------------------------------------------------------------- main */

typedef struct {
  const char *name;
  int n, closed, verified, held, best_analytic_held;
  double best_epsilon, correlation, seconds;
} object_summary;

/* The object's name in the output: the file's name without its
 * extension, or its folder's when the file is named for what it is, not
 * which (YCB's YcbBanana/model.urdf is "YcbBanana"). */
static const char *base_name(const char *path, char *buf, size_t size) {
  const char *s = strrchr(path, '/');
  const char *file = s ? s + 1 : path;
  size_t stem = strcspn(file, ".");
  if (s && s > path && stem == 5 && strncmp(file, "model", 5) == 0) {
    const char *d = s;
    while (d > path && d[-1] != '/') d--;
    if (d < s) {
      snprintf(buf, size, "%.*s", (int)(s - d), d);
      return buf;
    }
  }
  snprintf(buf, size, "%s", file);
  char *dot = strrchr(buf, '.');
  if (dot && dot != buf) *dot = 0;
  return buf;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  args a;
  int rc = parse_args(argc, argv, &a);
  if (rc) {
    for (int i = 0; i < a.nowned; i++) free(a.owned[i]);
    return rc < 0 ? EXIT_OK : rc;
  }
  pool *P = pool_new((int)a.jobs, &argc, &argv);
  if (!P) return EXIT_FAILED;
  const int root = pool_rank(P) == 0;
  int status = EXIT_OK;

  /* Rank 0's signals only: another rank stopped alone would leave holes
   * in rank 0's results (mpirun ends every rank when one dies). */
  if (root) catch_signals();
  /* The output set: named (and refused) before any work. */
  lk_outputs *out = NULL;
  FILE *csv = NULL;
  int view_at = -1, plot_at = -1; /* members of the set */
  lk_view *view = NULL;
  double *plot_x = NULL; /* the plot's points: epsilon and row */
  int *plot_r = NULL;
  long plot_n = 0, plot_cap = 0;
  if (root) {
    lk_error e;
    out = lk_outputs_new();
    /* The files read are inputs no output may replace: the hand, the
     * objects and the list that names them. */
    int bad_input = 0;
    if (out) {
      bad_input |= lk_outputs_input(out, a.hand, &e) != LK_OK;
      for (int k = 0; k < a.nobjects && !bad_input; k++)
        bad_input |= lk_outputs_input(out, a.objects[k], &e) != LK_OK;
      if (a.objects_arg && !bad_input) bad_input |= lk_outputs_input(out, a.objects_arg, &e) != LK_OK;
    }
    if (!out || bad_input || lk_outputs_add(out, a.output ? a.output : "-", &e) < 0 ||
        (a.view && (view_at = lk_outputs_add(out, a.view, &e)) < 0) ||
        (a.plot && (plot_at = lk_outputs_add(out, a.plot, &e)) < 0)) {
      fprintf(stderr, "grasp-planner: %s\n", out ? e.message : "out of memory");
      status = EXIT_USAGE;
    } else if (a.view && !(view = lk_view_new(&(lk_view_options){.title = "grasp-planner",
                                                                 .fps = 60},
                                              &e))) {
      fprintf(stderr, "grasp-planner: %s\n", e.message);
      status = EXIT_FAILED;
    } else if (lk_outputs_open(out, &e)) {
      char buf[1024];
      fprintf(stderr, "grasp-planner: %s\n", lk_error_format(&e, buf, sizeof buf));
      status = EXIT_FAILED;
    } else {
      csv = lk_outputs_file(out, 0);
      fputs(kHeader, csv);
    }
  }
  status = pool_bcast_int(P, status);

  object_summary *sum = calloc((size_t)a.nobjects, sizeof *sum);
  bar pb = {root && !a.quiet && isatty(STDERR_FILENO), 0, now(), 0, 0, 0, 0, 0, a.nobjects};
  pb.total = (double)a.nobjects *
             ((double)a.n + (double)a.refine * a.rounds + (double)a.reclose * kTrialWeight / 4 +
              (double)a.verify * kTrialWeight);
  /* --package-path's directories, then ROS_PACKAGE_PATH's, as linkage does
   * (the library reads no environment). */
  static char package_path[sizeof a.package_path + 8192];
  const char *ros = getenv("ROS_PACKAGE_PATH");
  snprintf(package_path, sizeof package_path, "%s%s%s", a.package_path,
           a.package_path[0] && ros && *ros ? ":" : "", ros ? ros : "");
  double sweep_start = now();
  for (int oi = 0; oi < a.nobjects && status == EXIT_OK && sum; oi++) {
    double t0 = now();
    pb.object = oi;
    lk_error e;
    lk_grasp_scene_options so;
    lk_grasp_scene_options_default(&so);
    so.hand_set = a.hset;
    so.nhand_set = a.nh;
    so.object_set = a.oset;
    so.nobject_set = a.no;
    so.package_path = package_path;
    so.strict_meshes = a.strict_meshes;
    so.keep_rest_overlaps = a.keep_rest_overlaps;
    so.palm = a.palm;
    so.approach = a.approach;
    so.closing = a.closing;
    so.nclosing = a.nclosing;
    so.soft_fingers = a.soft_fingers;
    /* What the hand and object files include or reference are inputs too
     * (rank 0 holds the output set; the other ranks read the same files). */
    so.input = out ? lk_outputs_input : NULL;
    so.input_ctx = out;
    lk_grasp_mesh_object mo;
    lk_grasp_mesh_object_default(&mo);
    mo.mass = a.mass;
    mo.keep_hull = a.keep_hull;
    lk_grasp_mesh_object_report mrep;
    memset(&mrep, 0, sizeof mrep);
    mo.report = &mrep;
    if (is_mesh_file(a.objects[oi])) {
      so.object_mesh = &mo;
      so.nobject_set = 0; /* --set-object is for the mechanism files */
    }
    lk_grasp_scene *scene = lk_grasp_scene_load(a.hand, a.objects[oi], &so, &e);
    if (scene && root && mrep.warning[0]) {
      bar_clear(&pb);
      fprintf(stderr, "grasp-planner: warning: %s\n", mrep.warning);
    }
    if (scene && root && oi == 0 && lk_grasp_scene_warning(scene)[0]) { /* the hand's: once */
      bar_clear(&pb);
      fprintf(stderr, "grasp-planner: warning: %s\n", lk_grasp_scene_warning(scene));
    }
    lk_grasp_sample_options sopt;
    lk_grasp_sample_options_default(&sopt);
    sopt.kind = a.sampler;
    sopt.seed = a.seed;
    sopt.standoff_min = a.smin;
    sopt.standoff_max = a.smax;
    lk_grasp_screen_options copt;
    lk_grasp_screen_options_default(&copt);
    copt.analysis.edges = a.edges;
    lk_force loads[LK_GRASP_TRIAL_LOADS];
    int nloads = 0;
    g_rank_load = a.rank_load;
    if (scene && a.rank_load) { /* the loads of the trials this run verifies with */
      nloads = lk_grasp_trial_loads(scene, &a.trial, loads, LK_GRASP_TRIAL_LOADS);
      copt.nloads = nloads;
      copt.loads = loads;
    }
    lk_grasp_sampler *sampler = scene ? lk_grasp_sampler_new(scene, &sopt, &e) : NULL;
    lk_grasp_screener *screener = sampler ? lk_grasp_screener_new(scene, &copt, &e) : NULL;
    phase_ctx x = {.scene = scene, .sampler = sampler, .screener = screener, .trial = &a.trial,
                   .rounds = (int)a.rounds, .loads = loads, .nloads = nloads};
    int ok = screener != NULL;
    /* Rank 0 alone refuses an output naming an included file: every rank
     * must stop with it, or the others would wait in the screening. */
    if (!pool_bcast_int(P, ok)) ok = 0;
    for (int j = 0; ok && j < pool_jobs(P); j++) {
      x.d[j] = lk_data_new(lk_grasp_scene_model(scene));
      x.contacts[j] = malloc(sizeof(lk_grasp_contact) * CONTACT_CAP);
      ok = x.d[j] && x.contacts[j];
    }
    if (!ok) {
      if (root) {
        char buf[1024];
        bar_clear(&pb);
        fprintf(stderr, "grasp-planner: %s\n",
                screener ? "out of memory" : lk_error_format(&e, buf, sizeof buf));
      }
      status = screener ? EXIT_FAILED : EXIT_USAGE;
    }
    if (ok) {
      double radius = lk_grasp_scene_object_radius(scene);
      x.translation = 0.1 * radius;
      x.rotation = 0.15;
      g_radius = radius;
      /* 1. Screen n candidates (rank 0 draws them; every rank screens). */
      int n = root ? (int)a.n : 0;
      lk_grasp_candidate *cand = root ? malloc(sizeof *cand * (size_t)a.n) : NULL;
      screened *scr = root ? malloc(sizeof *scr * (size_t)a.n) : NULL;
      if (root && (!cand || !scr)) n = 0;
      if (g_signal) n = 0; /* nothing more to do */
      for (int i = 0; i < n && !g_signal; i++) lk_grasp_sampler_draw(sampler, i, &cand[i], &e);
      pb.weight = 1;
      pool_map(P, &x, screen_one, n, cand, sizeof *cand, scr, sizeof *scr, bar_draw, &pb);
      pb.base += (double)a.n;
      if (root && n) qsort(scr, (size_t)n, sizeof *scr, screen_cmp);
      /* 2. Refine the best R closed ones. */
      int nr = 0;
      if (root)
        while (nr < a.refine && nr < n && !scr[nr].st && scr[nr].s.outcome == LK_SCREEN_CLOSED)
          nr++;
      screened *ref = root && nr ? malloc(sizeof *ref * (size_t)nr) : NULL;
      if (root && nr && !ref) nr = 0;
      pb.weight = (double)a.rounds;
      pool_map(P, &x, refine_one, nr, scr, sizeof *scr, ref, sizeof *ref, bar_draw, &pb);
      pb.base += (double)a.refine * a.rounds;
      if (root) {
        for (int i = 0; i < nr; i++) scr[i] = ref[i];
        if (n) qsort(scr, (size_t)n, sizeof *scr, screen_cmp);
      }
      /* 2b. --reclose: the best K closed again dynamically, re-ranked. */
      int nk = 0;
      if (root)
        while (nk < a.reclose && nk < n && !scr[nk].st && scr[nk].s.outcome == LK_SCREEN_CLOSED)
          nk++;
      screened *recl = root && nk ? malloc(sizeof *recl * (size_t)nk) : NULL;
      if (root && nk && !recl) nk = 0;
      pb.weight = kTrialWeight / 4;
      pool_map(P, &x, reclose_one, nk, scr, sizeof *scr, recl, sizeof *recl, bar_draw, &pb);
      pb.base += (double)a.reclose * kTrialWeight / 4;
      if (root && nk) {
        for (int i = 0; i < nk; i++) scr[i] = recl[i];
        qsort(scr, (size_t)nk, sizeof *scr, screen_cmp);
      }
      free(recl);
      /* 3. Verify the best K by trials. */
      int nv = root ? (int)(a.verify < n ? a.verify : n) : 0;
      verified *ver = root && nv ? malloc(sizeof *ver * (size_t)nv) : NULL;
      if (root && nv && !ver) nv = 0;
      pb.weight = kTrialWeight;
      pool_map(P, &x, verify_one, nv, scr, sizeof *scr, ver, sizeof *ver, bar_draw, &pb);
      pb.base += (double)a.verify * kTrialWeight;
      if (root) {
        row *rows = malloc(sizeof *rows * (size_t)(n ? n : 1));
        object_summary *os = &sum[oi];
        char nb[256];
        os->name = strdup(base_name(a.objects[oi], nb, sizeof nb));
        os->n = n;
        os->best_epsilon = n && !scr[0].st ? scr[0].s.epsilon : 0;
        for (int i = 0; i < n; i++) os->closed += !scr[i].st && scr[i].s.outcome == LK_SCREEN_CLOSED;
        double *xe = malloc(sizeof(double) * (size_t)(nv ? nv : 1));
        double *yh = malloc(sizeof(double) * (size_t)(nv ? nv : 1));
        for (int i = 0; i < n && rows; i++) {
          rows[i].s = scr[i];
          rows[i].verified = i < nv;
          if (i < nv) {
            rows[i].v = ver[i];
            if (ver[i].st) status = EXIT_FAILED;
            os->held += !ver[i].st && ver[i].r.held;
            if (xe && yh) {
              xe[i] = scr[i].s.epsilon;
              yh[i] = !ver[i].st && ver[i].r.held;
            }
          }
        }
        os->verified = nv;
        os->best_analytic_held = nv > 0 && !ver[0].st && ver[0].r.held;
        os->correlation = xe && yh ? spearman(xe, yh, nv) : NAN;
        free(xe);
        free(yh);
        if (rows) {
          qsort(rows, (size_t)n, sizeof *rows, row_cmp);
          write_rows(csv, os->name, rows, n);
        } else {
          status = EXIT_FAILED;
        }
        if (rows && a.plot && status == EXIT_OK) {
          if (plot_n + n > plot_cap) {
            long cap = plot_cap ? 2 * plot_cap : 1024;
            while (cap < plot_n + n) cap *= 2;
            double *px = realloc(plot_x, sizeof *px * (size_t)cap);
            if (px) plot_x = px;
            int *pr = realloc(plot_r, sizeof *pr * (size_t)cap);
            if (pr) plot_r = pr;
            if (px && pr)
              plot_cap = cap;
            else
              status = EXIT_FAILED;
          }
          for (int i = 0; i < n && plot_n < plot_cap; i++, plot_n++) {
            plot_x[plot_n] = rows[i].s.st ? NAN : rows[i].s.s.epsilon;
            plot_r[plot_n] = plot_row(&rows[i]);
          }
        }
        for (int k = 0; view && rows && status == EXIT_OK && !g_signal && k < a.view_top &&
                        k < n && rows[k].verified;
             k++) {
          lk_error ve;
          if (view_grasp(view, scene, x.d[0], &a.trial, os->name, k + 1, &rows[k], &ve)) {
            bar_clear(&pb);
            fprintf(stderr, "grasp-planner: --view %s: %s\n", a.view, ve.message);
            status = EXIT_FAILED;
          }
        }
        free(rows);
        os->seconds = now() - t0;
      }
      free(cand);
      free(scr);
      free(ref);
      free(ver);
    }
    for (int j = 0; j < pool_jobs(P); j++) {
      lk_data_free(x.d[j]);
      free(x.contacts[j]);
    }
    lk_grasp_screener_free(screener);
    lk_grasp_sampler_free(sampler);
    lk_grasp_scene_free(scene);
    if (root && g_signal) status = 128 + g_signal; /* every rank stops */
    status = pool_bcast_int(P, status);
  }
  double wall = now() - sweep_start;

  if (root && g_signal) {
    bar_clear(&pb);
    lk_outputs_discard(out);
    fprintf(stderr, "grasp-planner: interrupted by %s; %s\n",
            g_signal == SIGINT ? "SIGINT" : g_signal == SIGTERM ? "SIGTERM" : "SIGHUP",
            lk_outputs_replaces(out, 0) ? "the output file was not written" : "the output is incomplete");
    status = 128 + g_signal;
  }
  if (root) {
    bar_clear(&pb);
    lk_error e;
    int written = 1;
    if (csv && status != EXIT_USAGE && !g_signal) {
      char title[512], hb[256];
      snprintf(title, sizeof title, "%s: %ld candidates on %d object%s (seed %llu)",
               base_name(a.hand, hb, sizeof hb), plot_n, a.nobjects, a.nobjects > 1 ? "s" : "",
               a.seed);
      lk_plot_options po;
      lk_plot_options_default(&po);
      po.title = title;
      po.xlabel = "Ferrari-Canny epsilon of the screening";
      if ((view && lk_view_write(view, lk_outputs_file(out, view_at), &e)) ||
          (a.plot && lk_plot_strip_svg(lk_outputs_file(out, plot_at), &po, plot_x, plot_r,
                                       (int)plot_n, kPlotRows, P_ROWS, &e))) {
        fprintf(stderr, "grasp-planner: %s\n", e.message);
        status = EXIT_FAILED;
        written = 0;
        lk_outputs_discard(out); /* all or nothing */
      }
    }
    if (csv && written && status != EXIT_USAGE && !g_signal) {
      if (lk_outputs_commit(out, &e)) {
        fprintf(stderr, "grasp-planner: %s\n", e.message);
        status = EXIT_FAILED;
      }
    }
    lk_outputs_free(out);
    if (!a.quiet && sum && status != EXIT_USAGE && !g_signal) {
      int with_held = 0, best_held = 0, done = 0;
      double *eps = malloc(sizeof(double) * (size_t)a.nobjects);
      fprintf(stderr, "grasp-planner: %s, %d object%s, %ld candidates each (seed %llu, %d "
                      "process%s x %d thread%s)\n",
              a.hand, a.nobjects, a.nobjects > 1 ? "s" : "", a.n, a.seed, pool_size(P),
              pool_size(P) > 1 ? "es" : "", pool_jobs(P), pool_jobs(P) > 1 ? "s" : "");
      fprintf(stderr, "  %-20s %7s %7s %9s %8s %10s %8s %8s\n", "object", "closed", "held",
              "best eps", "best ok", "spearman", "s/object", "");
      int no_rank = 0, held_unclosed = 0;
      for (int oi = 0; oi < a.nobjects; oi++) {
        const object_summary *os = &sum[oi];
        if (!os->name) continue;
        done++;
        with_held += os->held > 0;
        best_held += os->best_analytic_held;
        if (eps) eps[done - 1] = os->best_epsilon;
        char rho[32];
        /* no correlation when every verified trial came out alike */
        if (isfinite(os->correlation))
          snprintf(rho, sizeof rho, "%.3g", os->correlation);
        else
          snprintf(rho, sizeof rho, "-"), no_rank++;
        held_unclosed += os->closed == 0 && os->held > 0;
        fprintf(stderr, "  %-20s %3d/%-3d %3d/%-3d %9.4g %8s %10s %8.2f\n", os->name,
                os->closed, os->n, os->held, os->verified, os->best_epsilon,
                os->best_analytic_held ? "held" : "no", rho, os->seconds);
      }
      if (no_rank)
        fprintf(stderr, "  spearman -: the verified trials all came out alike (or fewer than 2), "
                        "so epsilon cannot be ranked against holding\n");
      if (held_unclosed)
        fprintf(stderr, "  held without a closed candidate: the analysis found no pose in force "
                        "closure (e.g. two point contacts on a sphere leave the spin about their "
                        "line unresisted), but the trials' lift and shake do not load that "
                        "direction\n");
      if (eps && done) qsort(eps, (size_t)done, sizeof *eps, cmp_double);
      double median = eps && done ? (done % 2 ? eps[done / 2]
                                               : 0.5 * (eps[done / 2 - 1] + eps[done / 2]))
                                  : 0;
      fprintf(stderr,
              "  objects with a held grasp %d/%d; best analytic grasp held on %d/%d; median "
              "best epsilon %.4g; %.2f s per object, %.2f s in all; ranked list in %s\n",
              with_held, done, best_held, done, median, done ? wall / done : 0, wall,
              a.output && strcmp(a.output, "-") ? a.output : "standard output");
      if (a.view)
        fprintf(stderr, "  the best grasps' trials: open %s in a browser (%d scene%s)\n", a.view,
                lk_view_nscenes(view), lk_view_nscenes(view) == 1 ? "" : "s");
      if (a.plot) fprintf(stderr, "  epsilon by outcome, every candidate: %s\n", a.plot);
      free(eps);
    }
  }
  lk_view_free(view);
  free(plot_x);
  free(plot_r);
  if (sum)
    for (int oi = 0; oi < a.nobjects; oi++) free((char *)sum[oi].name);
  free(sum);
  for (int i = 0; i < a.nowned; i++) free(a.owned[i]);
  pool_free(P);
  return status;
}
