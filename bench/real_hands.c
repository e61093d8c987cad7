/* bench/real_hands: the grasp layer on the hands and objects users have
 * (issue 32), as published in ../shared/data/robots (or --data DIR):
 * PyBullet's Robotiq 2F-85 URDF (with the ROS package's meshes), Menagerie's
 * Robotiq 2F-85, Panda hand, Allegro and Shadow right hands (MJCF), each on every YCB
 * object there (ycb/ycb_objects/<name>/model.urdf). For each hand and
 * object: N candidates drawn by the scene's default sampler and screened
 * (lk_grasp_screen) on one thread, timed; how many closed (force closure)
 * and the best epsilon; then the best V by the planner's ranking (closed,
 * epsilon, fingers in contact, candidate) run as dynamic trials: how many
 * held. A hand that does not load is one line with the reason.
 *
 *   bench/real_hands [-n N] [--verify V] [--data DIR] [--hand NAME] [--object NAME] [--why]
 *                    [--soft-fingers A] [--rank load|epsilon] [--grip-force N] [--reclose K]
 *
 * --why: for each hand and object, why the candidates that did not close
 * failed: collision where placed, no contact, or contacts that are not
 * force closure (degenerate: the wrenches span < 6 dimensions; one-sided),
 * and how many of those were pinches of single points (every touching
 * finger at one contact point: no torsion about the line between them).
 *
 * --rank load: rank the closed candidates by the grip the trial's loads
 * need (lk_grasp_screen_report.load_force, from lk_grasp_trial_loads:
 * weight with the lift's acceleration, the shakes), the smaller first,
 * then by epsilon; --rank epsilon (default): by epsilon, as the planner.
 * --grip-force N: the trials press with N newtons a finger (default the
 * trial's, 10). --reclose K: the best K closed candidates are closed
 * again by the trial's own (dynamic) closing, lk_grasp_close, and re-ranked
 * by the load force of the contacts that closing leaves (the screen's
 * contacts are not always the trial's: the coupled jaws move the object
 * as they centre it).
 *
 * Screening rates are per CPU second of the screening thread (the machine
 * is shared). Everything else is deterministic. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linkage/linkage.h"

#ifndef LK_ROBOTS
#define LK_ROBOTS "../shared/data/robots"
#endif

#define CAP 512

typedef struct {
  const char *name, *file, *package; /* relative to the data directory */
  lk_vec3 approach;
  const char *palm; /* NULL: the root link */
} hand_desc;

static const hand_desc hands[] = {
    {"robotiq_2f85_urdf", "pybullet_ur5_robotiq/urdf/robotiq_85.urdf", "ros_robotiq", {0, 0, 1}, NULL},
    {"robotiq_2f85_mjcf", "menagerie/robotiq_2f85/2f85.xml", NULL, {0, 0, 1}, NULL},
    {"panda_hand_mjcf", "menagerie/franka_emika_panda/hand.xml", NULL, {0, 0, 1}, NULL},
    {"allegro_right_mjcf", "menagerie/wonik_allegro/right_hand.xml", NULL, {1, 0, 0}, NULL},
    {"shadow_right_mjcf", "menagerie/shadow_hand/right_hand.xml", NULL, {0, -1, 0}, "rh_palm"},
};

typedef struct {
  int index, closed, fingers;
  double eps, load;
} cand;

static int rank_by_load = 0; /* --rank load: by the screen's load_force */
static int reclose = 0;       /* --reclose K: re-rank the best K by the load
                                 force of the contacts a dynamic closing makes */
static double grip_force = 0; /* 0: the trial's default */

static int cand_cmp(const void *pa, const void *pb) {
  const cand *a = pa, *b = pb;
  if (a->closed != b->closed) return b->closed - a->closed;
  if (rank_by_load && a->load != b->load) return a->load < b->load ? -1 : 1;
  if (a->eps != b->eps) return a->eps > b->eps ? -1 : 1;
  if (a->fingers != b->fingers) return b->fingers - a->fingers;
  return a->index - b->index;
}

static int str_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  int n = 200, verify = 4;
  const char *data = LK_ROBOTS, *only = NULL, *only_obj = NULL;
  int why = 0;
  double soft = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--verify") && i + 1 < argc)
      verify = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--data") && i + 1 < argc)
      data = argv[++i];
    else if (!strcmp(argv[i], "--hand") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--object") && i + 1 < argc)
      only_obj = argv[++i];
    else if (!strcmp(argv[i], "--why"))
      why = 1;
    else if (!strcmp(argv[i], "--soft-fingers") && i + 1 < argc)
      soft = atof(argv[++i]);
    else if (!strcmp(argv[i], "--reclose") && i + 1 < argc)
      reclose = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--grip-force") && i + 1 < argc)
      grip_force = atof(argv[++i]);
    else if (!strcmp(argv[i], "--rank") && i + 1 < argc && !strcmp(argv[i + 1], "epsilon"))
      rank_by_load = 0, i++;
    else if (!strcmp(argv[i], "--rank") && i + 1 < argc && !strcmp(argv[i + 1], "load"))
      rank_by_load = 1, i++;
    else {
      fprintf(stderr, "usage: bench/real_hands [-n N] [--verify V] [--data DIR] [--hand NAME] "
                      "[--object NAME] [--why] [--soft-fingers A] [--rank load|epsilon] "
                      "[--grip-force N] [--reclose K]\n");
      return 2;
    }
  }
  if (n < 1 || verify < 0 || verify > n) {
    fprintf(stderr, "bench/real_hands: bad -n or --verify\n");
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/ycb/ycb_objects", data);
  DIR *dir = opendir(path);
  if (!dir) {
    printf("bench/real_hands: %s not there: nothing measured\n", path);
    return 0;
  }
  char *objects[64];
  int nobj = 0;
  for (struct dirent *de; (de = readdir(dir)) && nobj < 64;) {
    char f[4600];
    snprintf(f, sizeof f, "%s/%s/model.urdf", path, de->d_name);
    FILE *t = de->d_name[0] != '.' ? fopen(f, "r") : NULL;
    if (!t) continue;
    fclose(t);
    if (only_obj && strcmp(only_obj, de->d_name)) continue;
    objects[nobj++] = strdup(de->d_name);
  }
  closedir(dir);
  qsort(objects, (size_t)nobj, sizeof *objects, str_cmp);
  printf("bench/real_hands: %d YCB objects, %d candidates each (default sampler, seed 1), "
         "best %d verified\n",
         nobj, n, verify);
  printf("%-20s %-20s %9s %8s %9s %11s\n", "hand", "object", "closed", "held", "best eps",
         "screens/s");
  lk_grasp_contact *contacts = malloc(CAP * sizeof *contacts);
  cand *cs = malloc((size_t)n * sizeof *cs);
  lk_grasp_candidate *cd = malloc((size_t)n * sizeof *cd);
  if (!contacts || !cs || !cd) return 1;
  for (size_t h = 0; h < sizeof hands / sizeof hands[0]; h++) {
    const hand_desc *hd = &hands[h];
    if (only && strcmp(only, hd->name)) continue;
    char hand[4096], pkg[4096];
    snprintf(hand, sizeof hand, "%s/%s", data, hd->file);
    if (hd->package) snprintf(pkg, sizeof pkg, "%s/%s", data, hd->package);
    long closed_all = 0, screened_all = 0, held_all = 0, verified_all = 0;
    int objects_held = 0;
    double cpu_all = 0;
    for (int oi = 0; oi < nobj; oi++) {
      char obj[4600];
      snprintf(obj, sizeof obj, "%s/%s/model.urdf", path, objects[oi]);
      lk_grasp_scene_options so;
      lk_grasp_scene_options_default(&so);
      so.approach = hd->approach;
      so.package_path = hd->package ? pkg : NULL;
      so.palm = hd->palm;
      so.soft_fingers = soft; /* lk_grasp_scene_options.soft_fingers */
      lk_error e;
      lk_grasp_scene *s = lk_grasp_scene_load(hand, obj, &so, &e);
      if (!s) {
        char buf[1024];
        printf("%-20s %-20s does not load: %s\n", hd->name, objects[oi],
               lk_error_format(&e, buf, sizeof buf));
        if (oi == 0) break; /* the hand's fault, not the object's */
        continue;
      }
      lk_grasp_sampler *sp = lk_grasp_sampler_new(s, NULL, &e);
      /* The screen computes, for each closed candidate, the grip that
       * carries the trial's loads (weight with the lift's acceleration,
       * the shakes): --rank load ranks by it. */
      lk_force loads[LK_GRASP_TRIAL_LOADS];
      lk_grasp_screen_options sco;
      lk_grasp_screen_options_default(&sco);
      sco.nloads = lk_grasp_trial_loads(s, NULL, loads, LK_GRASP_TRIAL_LOADS); /* grip-free */
      sco.loads = loads;
      if (!rank_by_load) sco.nloads = 0; /* screened as the planner does */
      lk_grasp_screener *sc = sp ? lk_grasp_screener_new(s, &sco, &e) : NULL;
      lk_data *d = lk_data_new(lk_grasp_scene_model(s));
      if (!sp || !sc || !d) {
        printf("%-20s %-20s no sampler/screener: %s\n", hd->name, objects[oi], e.message);
        lk_grasp_sampler_free(sp);
        lk_grasp_screener_free(sc);
        lk_data_free(d);
        lk_grasp_scene_free(s);
        continue;
      }
      int closed = 0, errors = 0;
      int coll = 0, none = 0, degen = 0, onesided = 0, points = 0, fingers_hist[8] = {0};
      double best = 0;
      for (int i = 0; i < n; i++) lk_grasp_sampler_draw(sp, i, &cd[i], &e);
      double t0 = cpu_now();
      for (int i = 0; i < n; i++) {
        lk_grasp_screen_report r;
        lk_status st = lk_grasp_screen(sc, d, &cd[i].pose, NULL, &r, contacts, CAP, &e);
        cs[i].index = i;
        cs[i].closed = !st && r.outcome == LK_SCREEN_CLOSED;
        cs[i].eps = st ? 0 : r.epsilon;
        cs[i].fingers = st ? 0 : r.fingers_in_contact;
        cs[i].load = cs[i].closed ? r.load_force : INFINITY;
        errors += st != LK_OK;
        closed += cs[i].closed;
        if (cs[i].closed && r.epsilon > best) best = r.epsilon;
        if (st) continue;
        coll += r.outcome == LK_SCREEN_COLLISION;
        none += r.outcome == LK_SCREEN_NO_CONTACT;
        if (r.outcome == LK_SCREEN_NOT_CLOSED) {
          degen += r.reason == LK_GRASP_DEGENERATE;
          onesided += r.reason == LK_GRASP_ONE_SIDED;
          fingers_hist[r.fingers_in_contact < 7 ? r.fingers_in_contact : 7]++;
          /* a pinch of points: every touching finger at one contact */
          int per[LK_GRASP_MAX_FINGERS] = {0}, single = 1;
          for (int k = 0; k < r.ncontacts && k < CAP; k++) per[contacts[k].finger]++;
          for (int f = 0; f < LK_GRASP_MAX_FINGERS; f++) single &= per[f] <= 1;
          points += single && r.fingers_in_contact >= 2;
        }
      }
      double cpu = cpu_now() - t0;
      qsort(cs, (size_t)n, sizeof *cs, cand_cmp);
      if (reclose > 0) {
        /* The best K closed candidates closed again by the trial's
         * closing (dynamics: the jaws push the object as they centre it),
         * and ranked by the load force of the contacts that closing
         * leaves, about the object's centre of mass where it then is. */
        lk_grasp_trial_options to;
        lk_grasp_trial_options_default(&to);
        if (grip_force > 0) to.grip_force = grip_force;
        lk_force tl[LK_GRASP_TRIAL_LOADS];
        int ntl = lk_grasp_trial_loads(s, &to, tl, LK_GRASP_TRIAL_LOADS);
        const lk_model *m = lk_grasp_scene_model(s);
        lk_link_spec ls;
        lk_model_link(m, lk_grasp_scene_object(s), &ls);
        lk_grasp_extract_options eo;
        lk_grasp_extract_options_default(&eo);
        eo.object = lk_grasp_scene_object(s);
        eo.finger_of_link = lk_grasp_scene_finger_of_link(s);
        int K = reclose < n ? reclose : n;
        for (int k = 0; k < K && cs[k].closed; k++) {
          lk_grasp_trial_report tr;
          memset(&tr, 0, sizeof tr);
          double f = INFINITY;
          if (!lk_grasp_place(s, d, &cd[cs[k].index].pose, NULL, &e) &&
              !lk_grasp_close(s, d, &to, &tr, &e)) {
            int nc = lk_grasp_contacts_from_data(m, d, &eo, contacts, NULL, CAP);
            lk_grasp_options ao;
            lk_grasp_options_default(&ao);
            ao.center = lk_tf_point(lk_data_link_pose(d, eo.object), ls.com);
            ao.torque_scale = lk_grasp_scene_object_radius(s);
            if (nc > 0 && nc <= CAP &&
                lk_grasp_load_force(contacts, nc, &ao, tl, ntl, &f, NULL, NULL) != LK_OK)
              f = INFINITY;
            if (nc <= 0) f = INFINITY;
          }
          cs[k].load = f;
        }
        int save = rank_by_load;
        rank_by_load = 1;
        qsort(cs, (size_t)K, sizeof *cs, cand_cmp);
        rank_by_load = save;
      }
      int held = 0;
      lk_grasp_trial_options to;
      lk_grasp_trial_options_default(&to);
      if (grip_force > 0) to.grip_force = grip_force;
      for (int k = 0; k < verify; k++) {
        lk_grasp_trial_report tr;
        if (lk_grasp_trial(s, d, &cd[cs[k].index].pose, NULL, &to, &tr, &e) == LK_OK) {
          held += tr.held;
          if (why)
            printf("  trial of candidate %d (screen %s, eps %.4f, load grip %.3g N): %s (lost in %s), %d contacts, "
                   "%d fingers, force closure %d, closed %d, slip %.4f m %.3f rad; weight needs %.3g N a "
                   "finger, pressed %.3g, %.3g N\n",
                   cs[k].index, cs[k].closed ? "closed" : "not closed", cs[k].eps, cs[k].load,
                   lk_grasp_outcome_name(tr.outcome), (const char *[]){"close", "release", "lift", "shake", "-"}[tr.lost_in],
                   tr.ncontacts, tr.fingers_in_contact, tr.force_closure, tr.closed,
                   tr.slip_translation, tr.slip_rotation, tr.min_force, tr.finger_force[0],
                   tr.finger_force[1]);
        }
      }
      printf("%-20s %-20s %5d/%-3d %4d/%-3d %9.4f %11.0f%s\n", hd->name, objects[oi], closed, n,
             held, verify, best, n / cpu, errors ? " (screen errors)" : "");
      if (why)
        printf("  why: %d collision, %d no contact, %d not closed (%d degenerate, %d one-sided; "
               "%d pinches of one point a finger; by fingers touching 1:%d 2:%d 3+:%d)\n",
               coll, none, degen + onesided, degen, onesided, points, fingers_hist[1],
               fingers_hist[2], n - closed - coll - none - fingers_hist[1] - fingers_hist[2] -
                   fingers_hist[0]);
      fflush(stdout);
      closed_all += closed;
      screened_all += n;
      held_all += held;
      verified_all += verify;
      objects_held += held > 0;
      cpu_all += cpu;
      lk_data_free(d);
      lk_grasp_screener_free(sc);
      lk_grasp_sampler_free(sp);
      lk_grasp_scene_free(s);
    }
    if (screened_all > 0)
      printf("%-20s %-20s %5ld/%-5ld %ld/%-3ld %d objects with a held grasp, %.0f screens per CPU "
             "second\n",
             hd->name, "ALL", closed_all, screened_all, held_all, verified_all, objects_held,
             screened_all / cpu_all);
  }
  for (int i = 0; i < nobj; i++) free(objects[i]);
  free(contacts);
  free(cs);
  free(cd);
  return 0;
}
