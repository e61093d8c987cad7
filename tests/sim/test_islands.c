/* The step's islands and the passes after its solve, checked from their
 * definitions on the rows and contacts a step built:
 *   - islands (lk_sim_islands_prepare, one pass over the rows): the rows
 *     set aside are exactly those of the speculative contacts that stay
 *     open (a gap beyond 1e-6 of the contact tolerance; new, with J v* +
 *     bias >= 0 on the normal row, or one that carried nothing last step,
 *     with J v + bias >= 0), in row order after the islands' rows; the others a partition,
 *     each island's rows in row order, islands numbered by their first
 *     row, two rows in one island exactly when their trees are connected
 *     through rows not set aside (a union-find of the test's own), J v* of
 *     every row to 1e-12 of its terms, each small tree's segment count
 *     over the islands' rows; and the same, bit for bit, as lk_sim_islands
 *     (or, with rows set aside, lk_sim_islands_regroup) then
 *     lk_sim_prepare_rows;
 *   - the one pass over the contacts after the solve (constrain.c): each
 *     link's tactile count and normal force are those of its contact
 *     reports, and each geometry report's memory is kept for the next step
 *     under its id, its state and impulses written to its collision
 *     contact;
 *   - each geometry report's friction coefficients are its two geoms'
 *     materials' mixed (the step keeps the last pair's mix).
 * Scenes: a plank across blocks of three materials, a pyramid (one island), scattered spheres and a chain falling
 * (several islands), a gripper and a hand (multi-DoF trees). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collision/col_data.h"
#include "harness.h"
#include "linkage/linkage.h"
#include "mechanism.h"
#include "model/model_impl.h"
#include "piles.h"
#include "sim/sim_data.h"
#include "sim/sim_internal.h"

static int root(int *uf, int x) {
  while (uf[x] != x) x = uf[x];
  return x;
}

/* The islands of the data's rows against their definition; returns the
 * number of islands. */
static int check_islands(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  const int nrow = sd->st->nrow, nlink = lk_model_nlink(m);
  lk_sim_islands_prepare(m, d);
  const int nis = sd->st->nisland;
  const int *start = sd->island_start, *rows = sd->island_rows;
  CU_ASSERT_EQUAL_FATAL(start[0], 0);
  /* the rows set aside, from their definition */
  int *aside = calloc((size_t)nrow + 1, sizeof *aside);
  CU_ASSERT_FATAL(aside != NULL);
  int naside = 0;
  for (int r = 0; r < nrow; r++) {
    const lk_row *R = &sd->row[r];
    if (R->ckind != LK_CONSTRAINT_CONTACT || R->crow != 0) continue;
    const lk_contact_report *c = &sd->contact[R->cindex];
    if (c->geom < 0 || !(c->depth < -1e-6 * m->opt.contact_tolerance)) continue;
    double jvs = 0, jv = 0;
    const double *J = sd->jval + R->ofs;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      for (int k = 0; k < R->len[g]; k++) {
        jvs += J[k] * sd->vstar[R->v0[g] + k];
        jv += J[k] * d->v[R->v0[g] + k];
      }
      J += R->len[g];
    }
    const lk_contact_mem *mem = &sd->cmem[R->cindex];
    if (mem->valid ? !(mem->z[0] == 0 && jv + R->bias >= 0) : !(jvs + R->bias >= 0)) continue;
    for (int q = r; q < nrow && sd->row[q].ckind == LK_CONSTRAINT_CONTACT &&
                    sd->row[q].cindex == R->cindex;
         q++)
      aside[q] = 1;
  }
  for (int r = 0; r < nrow; r++) naside += aside[r];
  CU_ASSERT_EQUAL_FATAL(start[nis], nrow - naside);
  int bad_aside = 0;
  for (int p = start[nis], last = -1; p < nrow; p++) {
    int r = rows[p];
    if (r < 0 || r >= nrow || !aside[r] || r <= last || sd->row[r].island != -1) bad_aside++;
    if (r >= 0 && r < nrow) last = r;
  }
  CU_ASSERT_EQUAL(bad_aside, 0);
  int *seen = calloc((size_t)nrow + 1, sizeof *seen);
  int *uf = malloc(sizeof *uf * (size_t)nlink);
  int *comp_island = malloc(sizeof *comp_island * (size_t)nlink);
  int *segs = calloc((size_t)nlink, sizeof *segs);
  CU_ASSERT_FATAL(seen && uf && comp_island && segs);
  int bad_part = 0, bad_order = 0, bad_loc = 0;
  for (int i = 0; i < nis; i++) {
    if (!(start[i + 1] > start[i])) bad_part++; /* no empty island */
    for (int p = start[i]; p < start[i + 1]; p++) {
      int r = rows[p];
      if (r < 0 || r >= nrow || aside[r] || seen[r]++) {
        bad_part++;
        continue;
      }
      if (p > start[i] && !(rows[p - 1] < r)) bad_order++;
      if (sd->row[r].island != i || sd->rowloc[r] != p - start[i]) bad_loc++;
    }
    if (i > 0 && !(rows[start[i - 1]] < rows[start[i]])) bad_order++; /* by first row */
  }
  CU_ASSERT_EQUAL(bad_part, 0);
  CU_ASSERT_EQUAL(bad_order, 0);
  CU_ASSERT_EQUAL(bad_loc, 0);
  /* connectivity: the test's union-find over the rows' trees */
  for (int l = 0; l < nlink; l++) {
    uf[l] = l;
    comp_island[l] = -1;
  }
  for (int r = 0; r < nrow; r++) {
    const lk_row *R = &sd->row[r];
    if (!aside[r] && R->tree[1] >= 0) {
      int a = root(uf, R->tree[0]), b = root(uf, R->tree[1]);
      if (a != b) uf[a] = b;
    }
  }
  int bad_comp = 0, ncomp = 0;
  for (int r = 0; r < nrow; r++) {
    if (aside[r]) continue;
    int c = root(uf, sd->row[r].tree[0]);
    if (comp_island[c] < 0) {
      comp_island[c] = sd->row[r].island;
      ncomp++;
    } else if (comp_island[c] != sd->row[r].island) {
      bad_comp++;
    }
  }
  CU_ASSERT_EQUAL(bad_comp, 0);
  CU_ASSERT_EQUAL(ncomp, nis); /* and distinct components, distinct islands */
  /* J v* and the segment counts */
  int bad_jv = 0, bad_segs = 0;
  for (int r = 0; r < nrow; r++) {
    const lk_row *R = &sd->row[r];
    const double *J = sd->jval + R->ofs;
    double s = 0, scale = 0;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      for (int k = 0; k < R->len[g]; k++) {
        s += J[k] * sd->vstar[R->v0[g] + k];
        scale += fabs(J[k] * sd->vstar[R->v0[g] + k]);
      }
      J += R->len[g];
      if (!aside[r]) segs[R->tree[g]]++;
    }
    if (!(fabs(R->jv - s) <= 1e-12 * scale + 1e-300)) bad_jv++;
  }
  for (int r = 0; r < nrow; r++)
    for (int g = 0; g < 2 && sd->row[r].tree[g] >= 0; g++)
      if (sd->minv_segs[sd->row[r].tree[g]] != segs[sd->row[r].tree[g]]) bad_segs++;
  CU_ASSERT_EQUAL(bad_jv, 0);
  CU_ASSERT_EQUAL(bad_segs, 0);
  /* the fused pass against the two separate ones, bit for bit */
  double *jv = malloc(sizeof *jv * (size_t)(nrow + 1));
  int *isl = malloc(sizeof *isl * (size_t)(3 * nrow + nis + 2));
  CU_ASSERT_FATAL(jv && isl);
  for (int r = 0; r < nrow; r++) {
    jv[r] = sd->row[r].jv;
    isl[r] = sd->row[r].island;
    isl[nrow + r] = sd->rowloc[r];
    isl[2 * nrow + r] = rows[r];
  }
  memcpy(isl + 3 * nrow, start, sizeof *start * (size_t)(nis + 1));
  if (naside)
    lk_sim_islands_regroup(m, d);
  else
    lk_sim_islands(m, d);
  lk_sim_prepare_rows(m, d);
  int differ = sd->st->nisland != nis;
  for (int r = 0; r < nrow && !differ; r++)
    differ = memcmp(&jv[r], &sd->row[r].jv, sizeof(double)) != 0 || isl[r] != sd->row[r].island ||
             isl[nrow + r] != sd->rowloc[r] || isl[2 * nrow + r] != rows[r];
  if (!differ) differ = memcmp(isl + 3 * nrow, start, sizeof *start * (size_t)(nis + 1)) != 0;
  CU_ASSERT_EQUAL(differ, 0);
  free(jv);
  free(isl);
  free(aside);
  free(seen);
  free(uf);
  free(comp_island);
  free(segs);
  return nis;
}

/* The reports of the pass after the solve against the contact reports. */
static void check_reports(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  const int nlink = lk_model_nlink(m), nc = sd->st->ncontact;
  int *count = calloc((size_t)nlink, sizeof *count);
  double *fn = calloc((size_t)nlink, sizeof *fn), *scale = calloc((size_t)nlink, sizeof *scale);
  CU_ASSERT_FATAL(count && fn && scale);
  for (int i = 0; i < nc; i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    int links[2] = {c->link, c->other};
    for (int s = 0; s < 2; s++)
      if (links[s] > 0) {
        count[links[s]]++;
        fn[links[s]] += c->fn;
        scale[links[s]] += fabs(c->fn);
      }
  }
  int bad_tactile = 0;
  for (int l = 1; l < nlink; l++) {
    lk_tactile t;
    CU_ASSERT_EQUAL_FATAL(lk_data_tactile(d, l, &t), LK_OK);
    if (t.ncontacts != count[l] || !(fabs(t.normal_force - fn[l]) <= 1e-12 * scale[l] + 1e-300))
      bad_tactile++;
  }
  CU_ASSERT_EQUAL(bad_tactile, 0);
  int bad_mix = 0;
  for (int i = 0; i < nc; i++) {
    const lk_contact_report *c = &sd->contact[i];
    if (c->geom < 0) continue;
    const lk_material_spec *ma = &m->mat[m->geom_mat[c->geom]];
    const lk_material_spec *mb = &m->mat[m->geom_mat[c->other_geom]];
    double ms = lk_mix_rule_apply(m->opt.friction_mix, ma->mu_static, mb->mu_static);
    double md = lk_mix_rule_apply(m->opt.friction_mix, ma->mu_dynamic, mb->mu_dynamic);
    if (c->mu_static != ms || c->mu_dynamic != fmin(md, ms)) bad_mix++;
  }
  CU_ASSERT_EQUAL(bad_mix, 0);
  /* geometry reports come first: report k is remembered as k */
  int ngeom = 0, bad_mem = 0, bad_col = 0;
  for (int i = 0; i < nc; i++) {
    const lk_contact_report *c = &sd->contact[i];
    if (c->geom < 0) continue;
    if (ngeom >= sd->gprev_cap) break;
    if (sd->gid_prev[ngeom] != c->id || sd->gkey_prev[3 * ngeom] != c->geom ||
        sd->gkey_prev[3 * ngeom + 1] != c->other_geom ||
        memcmp(&sd->gmem_prev[ngeom], &sd->cmem[i], sizeof sd->cmem[i]) != 0)
      bad_mem++;
    for (int j = 0, n = lk_data_ncontact(d); j < n; j++) {
      const lk_contact *cc = lk_data_contact(d, j);
      if (cc->id != c->id) continue;
      if (cc->friction != sd->cmem[i].state ||
          memcmp(cc->impulse, sd->cmem[i].z, sizeof cc->impulse) != 0)
        bad_col++;
    }
    ngeom++;
  }
  CU_ASSERT_EQUAL(sd->st->ngprev, ngeom);
  CU_ASSERT_EQUAL(bad_mem, 0);
  CU_ASSERT_EQUAL(bad_col, 0);
  free(count);
  free(fn);
  free(scale);
}

/* Steps the scene, checking after every `every` steps; returns the most
 * islands seen. */
static int run(lk_model *m, int steps, int every) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  int most = 0;
  for (int s = 1; s <= steps; s++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    if (s % every || d->sim.st->nrow == 0) continue;
    check_reports(m, d); /* before check_islands re-forms the islands */
    int nis = check_islands(m, d);
    if (nis > most) most = nis;
  }
  lk_data_free(d);
  lk_model_free(m);
  return most;
}

static void test_pyramid(void) { CU_ASSERT_EQUAL(run(piles_pyramid(30, 1e-3), 60, 20), 1); }

/* Spheres dropped apart meet the floor and each other: islands of one
 * sphere and of several. */
static void test_spheres(void) { CU_ASSERT(run(piles_spheres(30, 1e-3), 400, 50) >= 3); }

static void test_chain(void) { CU_ASSERT(run(piles_chain(12, 0.1, 2e-3), 300, 30) >= 1); }

static void test_gripper(void) {
  CU_ASSERT(run(test_mechanism("gripper.yaml", NULL, 0), 2000, 100) >= 1);
}

static void test_hand(void) { CU_ASSERT(run(test_mechanism("hand3.yaml", NULL, 0), 4000, 200) >= 1); }

/* Three materials: a plank (a) across two blocks (b, c) on a floor (a),
 * so that one geom meets geoms of two materials in a row. */
static lk_model *three_materials(void) {
  lk_model *m = lk_model_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  static const char *mat[3] = {"a", "b", "c"};
  static const double mu[3] = {0.3, 0.9, 0.6};
  int bad = 0;
  for (int i = 0; i < 3; i++) {
    lk_material_spec s;
    lk_material_spec_default(&s);
    s.name = mat[i];
    s.mu_static = mu[i];
    s.mu_dynamic = 0.8 * mu[i];
    bad |= lk_model_add_material(m, &s, NULL) != LK_OK;
  }
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.type = LK_GEOM_PLANE;
  g.material = "a";
  bad |= lk_model_add_geom(m, &g, NULL) != LK_OK;
  static const char *name[3] = {"block_b", "block_c", "plank"};
  static const char *gmat[3] = {"b", "c", "a"};
  const double px[3] = {-0.06, 0.06, 0}, pz[3] = {0.05, 0.05, 0.12};
  const lk_vec3 half[3] = {lk_v3(0.05, 0.05, 0.05), lk_v3(0.05, 0.05, 0.05), lk_v3(0.12, 0.05, 0.02)};
  for (int i = 0; i < 3; i++) {
    lk_link_spec l;
    lk_link_spec_default(&l);
    l.name = name[i];
    l.joint.type = LK_JOINT_FREE;
    l.mass = 1.0;
    l.inertia = lk_inertia_solid_box(1.0, half[i]);
    lk_geom_spec_default(&g);
    g.link = name[i];
    g.type = LK_GEOM_BOX;
    g.size[0] = half[i].x;
    g.size[1] = half[i].y;
    g.size[2] = half[i].z;
    g.material = gmat[i];
    double q[7] = {px[i], 0, pz[i], 1, 0, 0, 0};
    bad |= lk_model_add_link(m, &l, NULL) != LK_OK || lk_model_add_geom(m, &g, NULL) != LK_OK ||
           lk_model_set_initial(m, name[i], q, 7, NULL, 0, NULL) != LK_OK;
  }
  CU_ASSERT_FATAL(!bad && lk_model_finalize(m, NULL) == LK_OK);
  return m;
}

static void test_materials(void) { CU_ASSERT_EQUAL(run(three_materials(), 100, 10), 1); }

static const lk_test tests[] = {{"three materials", test_materials},
                                {"pyramid of 30 boxes", test_pyramid},
                                {"scattered spheres", test_spheres},
                                {"chain", test_chain},
                                {"gripper", test_gripper},
                                {"three-finger hand", test_hand},
                                {NULL, NULL}};

void lk_test_register(void) { lk_test_suite("islands", tests); }
