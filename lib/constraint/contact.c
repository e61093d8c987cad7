/* frictionContact and rollingContact: rows and reports.
 *
 * Rows of one contact (link touching other at p, normal n from other to
 * link), velocity level (Anitescu & Potra 1997; Stewart & Trinkle 1996):
 *   normal   n . v_rel(p) + bias >= 0  complementary to  z_n >= 0
 *   t1, t2   tangential velocity, |z_t| <= mu z_n, mu = mu_static while the
 *            contact is static, mu_dynamic while it slides
 *   twist    n . w_rel,   |z| <= mu_torsional r_p z_n       (rolling only)
 *   roll1,2  t_i . w_rel, |z| <= mu_rolling r_p z_n          (rolling only)
 * The normal row's bias keeps penetration within the tolerance without
 * adding energy: nothing inside the tolerance, an erp share of the excess
 * per step beyond it, and a speculative allowance -gap/h for a contact that
 * is not yet touching; Newton restitution for impacts faster than the
 * threshold. */
#include <math.h>

#include "constraint/constraint_impl.h"

double lk_mix_rule_apply(lk_mix_rule rule, double a, double b) { return lk_mix(a, b, rule); }

static int add_row(const lk_model *m, lk_data *d, const lk_contact_geom *g, int report, int crow,
                   lk_force F) {
  int r = lk_rows_add(m, d, g->link, g->other, LK_CONSTRAINT_CONTACT, report, crow);
  if (r >= 0) lk_rows_set_wrench(m, d, r, g->link, g->other, F);
  return r;
}

/* The tangent basis: the persistent one re-projected when the contact
 * persists, else a deterministic one (the step re-aligns it anyway). */
static lk_vec3 first_tangent(const lk_contact_geom *g, lk_vec3 last) {
  lk_vec3 n = g->n;
  if (g->mem->valid) {
    lk_vec3 t = lk_v3_sub(last, lk_v3_scale(n, lk_v3_dot(n, last)));
    if (lk_v3_norm(t) > 1e-6) return lk_v3_normalize(t);
  }
  return lk_any_tangent(n);
}

/* Sticking contacts anchored (issue 31.2). A static contact's friction
 * rows hold the relative tangential velocity of the touching points at
 * zero, at the step's start configuration; the position update then moves
 * the bodies along straight lines, and on a turning frame a sticking body
 * creeps outward by r (h w)^2 / 2 a step (a cube on a turntable: 6 mm in
 * 5 s at half its slip threshold). So a static contact remembers the two
 * material points where it stuck, and the tangential offset between them
 * is taken back after the position update, by a projection of the
 * positions alone (anchor.c: post-stabilization, as the loops' closure
 * is): no load inside the cone moves it, in any frame. The rows are those
 * of an unanchored contact. (Asking the offset back through the rows'
 * bias, as a velocity target, failed: a grip's or a face's tangent rows
 * are redundant, an offset that is not exactly a rigid motion of the pair
 * -- anchors set at different instants round a loop, a finite rotation's
 * second-order part -- has a part outside their range, and the sticking
 * trial's ridge turned picometres of it into newtons of internal friction
 * that broke the cones: bench/grasp's friction passes grew from 365 to
 * 1035 islands with a hundredth of the correction as with all of it.)
 * The anchor is set afresh (nothing taken back) when the contact is new or
 * dynamic, when its friction was at its bound in the last solve (a
 * transient's slip, or a load at the cone: what it slipped is not taken
 * back, which would take friction it does not have), and when the contact
 * point moves on either body by more than ten times the offset (a rolling
 * or pivoting contact, whose touching material points change); a sphere's,
 * a capsule's and a cylinder's side contacts are not anchored (they roll),
 * nor the smoothed friction law's (whose creep is its law). */
/* A contact that can roll on this geom: a sphere's, a capsule's, or a
 * cylinder's anywhere but on its flat faces (normal along its axis).
 * Inline: it runs twice for every contact of every step. */
static inline int rounded(const lk_model *m, const lk_data *d, int geom, lk_vec3 n) {
  if (geom < 0) return 0;
  const lk_geom_spec *s = &m->geom[geom].spec;
  if (s->type == LK_GEOM_SPHERE || s->type == LK_GEOM_CAPSULE) return 1;
  if (s->type != LK_GEOM_CYLINDER) return 0;
  lk_vec3 axis = lk_tf_dir(&d->xw[m->geom_link[geom]], lk_tf_dir(&s->pose, lk_v3(0, 0, 1)));
  return fabs(lk_v3_dot(axis, n)) < 0.999;
}

static void anchor(const lk_model *m, lk_data *d, const lk_contact_geom *g, lk_contact_mem *mem) {
  /* a sphere's or capsule's contact rolls: its touching material points
   * change while it sticks */
  if (!m->opt.anchor_contacts) return;
  if (m->opt.friction_law != LK_FRICTION_COMPLEMENTARITY) return; /* (smoothed: creep is its law) */
  if (rounded(m, d, g->geom, g->n) || rounded(m, d, g->other_geom, g->n)) return;
  const lk_transform *Xa = &d->xw[g->link], *Xb = &d->xw[g->other];
  int keep = mem->anchored && mem->valid && mem->state == LK_FRICTION_STATIC;
  if (keep) {
    /* |z_t| < mu z_n (1 - 1e-6), squared (z_n >= 0: a normal impulse) */
    double zt2 = mem->z[1] * mem->z[1] + mem->z[2] * mem->z[2];
    double lim = g->mu_static * mem->z[0] * (1 - 1e-6);
    keep = lim > 0 && zt2 < lim * lim;
  }
  if (keep) {
    /* the anchors where they are now, their offset, and how far the
     * touching point moved along the surfaces on either body since they
     * were set (p - X a is R (X^-1 p - a): not along the normal, where the
     * contact point's depth changes) */
    lk_vec3 pa = lk_tf_point(Xa, mem->anchor_a), pb = lk_tf_point(Xb, mem->anchor_b);
    lk_vec3 off = lk_v3_sub(pa, pb), ma = lk_v3_sub(g->p, pa), mb = lk_v3_sub(g->p, pb);
    off = lk_v3_sub(off, lk_v3_scale(g->n, lk_v3_dot(g->n, off)));
    double size = lk_v3_norm(off);
    /* |x - n (n . x)|^2 = |x|^2 - (n . x)^2: the moves along the surfaces */
    double na = lk_v3_dot(g->n, ma), nb = lk_v3_dot(g->n, mb);
    double ma2 = lk_v3_dot(ma, ma) - na * na, mb2 = lk_v3_dot(mb, mb) - nb * nb;
    double reach = 10 * size + 1e-3 * m->opt.contact_tolerance;
    if (size < m->opt.contact_tolerance && ma2 <= reach * reach && mb2 <= reach * reach) {
      /* the offset is taken back after the position update (anchor.c);
       * the rows themselves are those of an unanchored contact */
      mem->anchor_fix = 1;
      mem->anchor_off = size;
      return; /* the anchor stays */
    }
  }
  mem->anchor_a = lk_tf_inv_point(Xa, g->p);
  mem->anchor_b = lk_tf_inv_point(Xb, g->p);
  mem->anchored = 1;
}

lk_status lk_contact_rows(const lk_model *m, lk_data *d, int report, const lk_contact_geom *g) {
  const lk_options *o = &m->opt;
  double h = o->timestep;
  lk_contact_mem *mem = g->mem;
  for (int k = 0; k < 6; k++) mem->row[k] = -1;
  mem->anchor_fix = 0;
  lk_vec3 n = g->n, p = g->p;
  lk_vec3 t1 = first_tangent(g, mem->t1);
  lk_vec3 t2 = lk_v3_cross(n, t1);
  mem->t1 = t1;
  /* the rolling rows' axes, for a contact that can have them */
  lk_vec3 r1 = mem->roll_t1, r2 = lk_v3_zero();
  if (g->type == LK_CONTACT_ROLLING) {
    r1 = first_tangent(g, mem->roll_t1);
    r2 = lk_v3_cross(n, r1);
    mem->roll_t1 = r1;
  }
  mem->age = g->age;
  if (!mem->valid) {
    mem->state = LK_FRICTION_STATIC;
    mem->nrows = 0;
  }

  /* The normal and tangent rows share their point: made and filled in one
   * go (lk_rows_add_point). */
  int pr[3] = {-1, -1, -1};
  lk_vec3 pd[3] = {n, t1, t2};
  int npr = g->mu_static > 0 ? 3 : 1;
  int st = lk_rows_add_point(m, d, g->link, g->other, LK_CONSTRAINT_CONTACT, report, 0, pd, npr, p,
                             pr);
  if (st == -2) return LK_OK; /* both sides immovable */
  if (st < 0) return LK_CAPACITY_EXCEEDED;
  int rn = pr[0];
  mem->row[0] = rn;
  lk_row *R = &d->sim.row[rn];
  R->kind = LK_ROW_UNILATERAL;
  /* Lower bound on the separating velocity after the step. */
  double lb;
  if (g->depth > g->tolerance)
    /* capped: a deep penetration (a body placed half sunk) is undone at a
     * bounded speed instead of shooting the body out (erp 0.2 of 5 cm in
     * 1 ms is 10 m/s) */
    lb = fmin(o->contact_erp * (g->depth - g->tolerance) / h, o->max_depenetration_speed);
  else if (g->depth < 0)
    lb = g->depth / h; /* = -gap/h: may approach up to the surface */
  else
    lb = 0;
  mem->z_impact = 0;
  mem->impact_speed = 0;
  mem->restitution = o->impacts == LK_IMPACTS_PROPAGATING ? g->restitution : 0;
  if (g->restitution > 0) {
    double vn = lk_rows_dot(d, rn, d->v); /* approach speed before the step */
    double vs = lk_rows_dot(d, rn, d->sim.vstar); /* and at its end, free */
    if (vn < -o->restitution_threshold && -g->depth < -fmin(vn, vs) * h) {
      /* The impact falls inside this step, at a gap of up to v h (the
       * margin finds it before it happens). Newton's e v_n from where the
       * step starts would bounce from that gap, up to v h too high. The
       * separating speed is instead the one that leaves the normal motion
       * e^2 of its energy measured from the surface, in the semi-implicit
       * Euler invariant E = v^2/2 - a x + a h v/2 of a motion under the
       * free normal acceleration a (x: gap, v: the velocity that reached
       * it). With a = 0 this is e |v_n|; under gravity it makes the
       * bounce apex e^2 of the drop to rounding at any timestep. */
      /* (scaled down when the impact's impulses would add energy:
       * lib/sim/impact.c) */
      double e = g->restitution * (1 - d->sim.st->restitution_cut), a = (vs - vn) / h,
             x = -g->depth;
      double E = 0.5 * vn * vn - a * x + 0.5 * a * h * vn;
      double c = 0.5 * a * h, disc = c * c + 2 * (a * x + e * e * E);
      double lr = E > 0 && disc > 0 ? c + sqrt(disc) : -e * vn;
      if (!(lr > 0)) lr = -e * vn;
      if (mem->restitution > 0) {
        /* propagating: Newton's law is applied contact by contact before
         * the LCP (lib/sim/impact.c), this contact's first impact at this
         * speed; the row itself is plastic */
        mem->impact_speed = lr;
      } else {
        if (lr > lb) lb = lr;
        lk_sim_scalars *sc = d->sim.st;
        if (sc->nimpact < LK_SIM_IMPACT_ROWS) sc->impact_row[sc->nimpact] = rn;
        sc->nimpact++;
      }
    }
  }
  R->bias = -lb;

  double mu = mem->state == LK_FRICTION_DYNAMIC ? g->mu_dynamic : g->mu_static;
  if (g->mu_static > 0) {
    mem->row[1] = pr[1];
    mem->row[2] = pr[2];
    for (int k = 1; k <= 2; k++) {
      lk_row *T = &d->sim.row[mem->row[k]];
      T->kind = LK_ROW_FRICTION;
      T->normal = rn;
      T->mu = mu;
      T->pair = mem->row[3 - k];
    }
    /* A pair that ended the last step sliding along -t1 (t1 persists)
     * starts locked to it: in steady sliding the first solve is then the
     * answer, instead of one to find that the pair slides and one more
     * with the lock (friction_update in solve.c releases or turns it if
     * the slip has moved). */
    if (mem->valid && mem->locked && mem->state == LK_FRICTION_DYNAMIC &&
        o->friction_cone == LK_CONE_CIRCLE)
      d->sim.row[mem->row[2]].mu = 0;
    anchor(m, d, g, mem);
  }
  if (g->type == LK_CONTACT_ROLLING && g->patch_radius > 0) {
    double rp = g->patch_radius;
    if (g->mu_torsional > 0) {
      int rt = add_row(m, d, g, report, 3, lk_fo(n, lk_v3_zero()));
      if (rt < 0) return LK_CAPACITY_EXCEEDED;
      mem->row[3] = rt;
      lk_row *T = &d->sim.row[rt];
      T->kind = LK_ROW_FRICTION;
      T->normal = rn;
      T->mu = g->mu_torsional * rp;
      T->pair = -1;
    }
    if (g->mu_rolling > 0) {
      int r4 = add_row(m, d, g, report, 4, lk_fo(r1, lk_v3_zero()));
      int r5 = r4 >= 0 ? add_row(m, d, g, report, 5, lk_fo(r2, lk_v3_zero())) : -1;
      if (r4 < 0 || r5 < 0) return LK_CAPACITY_EXCEEDED;
      mem->row[4] = r4;
      mem->row[5] = r5;
      for (int k = 4; k <= 5; k++) {
        lk_row *T = &d->sim.row[mem->row[k]];
        T->kind = LK_ROW_FRICTION;
        T->normal = rn;
        T->mu = g->mu_rolling * rp;
        T->pair = mem->row[9 - k];
      }
    }
  }
  lk_contact_report *c = &d->sim.contact[report];
  c->link = g->link;
  c->other = g->other;
  c->geom = g->geom;
  c->other_geom = g->other_geom;
  c->explicit_index = g->explicit_index;
  c->id = g->id;
  c->age = g->age;
  c->type = g->type;
  c->position = p;
  c->normal = n;
  c->depth = g->depth;
  c->mu_static = g->mu_static;
  c->mu_dynamic = g->mu_dynamic;
  return LK_OK;
}

/* The report from the solved rows. The solver may have rotated the tangent
 * pairs; it keeps mem->t1 and mem->roll_t1 up to date. */
void lk_contact_finish(const lk_model *m, lk_data *d, int report) {
  double h = m->opt.timestep;
  lk_contact_report *c = &d->sim.contact[report];
  lk_contact_mem *mem = &d->sim.cmem[report];
  lk_vec3 n = c->normal, t1 = mem->t1, t2 = lk_v3_cross(n, t1);
  lk_vec3 r1 = mem->roll_t1, r2 = mem->row[4] >= 0 ? lk_v3_cross(n, r1) : lk_v3_zero();
  const lk_row *row = d->sim.row;
  double z[6] = {0, 0, 0, 0, 0, 0}, w[6] = {0, 0, 0, 0, 0, 0};
  mem->nrows = 0;
  for (int k = 0; k < 6; k++) {
    if (mem->row[k] < 0) continue;
    z[k] = row[mem->row[k]].z;
    w[k] = row[mem->row[k]].w;
    mem->z[k] = z[k];
    mem->nrows++;
  }
  c->fn = z[0] / h;
  c->ft = lk_v3_scale(lk_v3_add(lk_v3_scale(t1, z[1]), lk_v3_scale(t2, z[2])), 1.0 / h);
  c->slip = lk_v3_add(lk_v3_scale(t1, w[1]), lk_v3_scale(t2, w[2]));
  c->slip_speed = lk_v3_norm(c->slip);
  /* A contact carrying no load (below a nanonewton: round-off of a
   * separating or unloaded contact) has no meaningful utilization. */
  double cap = c->mu_static * c->fn;
  c->utilization = c->fn > 1e-9 && cap > 0 ? lk_v3_norm(c->ft) / cap : 0;
  c->torsion = z[3] / h;
  c->rolling_moment =
      mem->row[4] < 0 && mem->row[5] < 0
          ? lk_v3_zero() /* no rolling rows (nor a current axis for them) */
          : lk_v3_scale(lk_v3_add(lk_v3_scale(r1, z[4]), lk_v3_scale(r2, z[5])), 1.0 / h);
  c->state = mem->state;
  mem->valid = 1;
}
