/* Physical plausibility (issue 18.9): parameters that are valid numbers
 * but far outside what the step can resolve. Run by lk_model_finalize()
 * on the finalized arrays; errors for what cannot be right, warnings (the
 * model's list, lk_model_warning) for what is suspicious. Each check, its
 * threshold and the reason for it: docs/format.md, "Physical
 * plausibility". */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "model/model_impl.h"

/* Thresholds (docs/format.md, "Physical plausibility"). */
#define LK_PLAUSIBLE_FALL_ERROR 100.0   /* g h^2 over the largest length */
#define LK_PLAUSIBLE_INERTIA_ERROR 1e6  /* uniform solids' inertia over the given */
#define LK_PLAUSIBLE_INERTIA_WARN 1e2
#define LK_PLAUSIBLE_GROWTH_ERROR 1e3   /* growth a step: overflow within 100 steps */
#define LK_PLAUSIBLE_PERIOD_WARN 4.0    /* periods below this many timesteps */

static void add_warning(lk_model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_warning(lk_model *m, const char *fmt, ...) {
  if (m->nwarn >= LK_MODEL_MAX_WARNINGS) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->warn[m->nwarn++], sizeof m->warn[0], fmt, ap);
  va_end(ap);
}

double lk_model_geom_extent(const lk_geom_spec *g) {
  switch (g->type) {
    case LK_GEOM_SPHERE:
    case LK_GEOM_CAPSULE:
      return g->size[0];
    case LK_GEOM_CYLINDER:
      return fmin(g->size[0], g->size[1]);
    case LK_GEOM_BOX:
      return fmin(g->size[0], fmin(g->size[1], g->size[2]));
    default:
      return INFINITY;
  }
}

/* The radius of a sphere about the geom's frame origin that holds it. */
static double geom_radius(const lk_geom_spec *g) {
  const double *s = g->size;
  switch (g->type) {
    case LK_GEOM_SPHERE:
      return s[0];
    case LK_GEOM_CAPSULE:
      return s[0] + s[1];
    case LK_GEOM_CYLINDER:
      return hypot(s[0], s[1]);
    case LK_GEOM_BOX:
      return sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    case LK_GEOM_MESH:
      return g->mesh ? lk_mesh_radius(g->mesh) : 0;
    default:
      return 0;
  }
}

double lk_geom_volume(const lk_geom_spec *g) {
  const double *s = g->size;
  switch (g->type) {
    case LK_GEOM_SPHERE:
      return 4.0 / 3.0 * LK_PI * s[0] * s[0] * s[0];
    case LK_GEOM_BOX:
      return 8.0 * s[0] * s[1] * s[2];
    case LK_GEOM_CYLINDER:
      return LK_PI * s[0] * s[0] * 2.0 * s[1];
    case LK_GEOM_CAPSULE:
      return LK_PI * s[0] * s[0] * 2.0 * s[1] + 4.0 / 3.0 * LK_PI * s[0] * s[0] * s[0];
    case LK_GEOM_MESH:
      return g->mesh ? lk_mesh_volume(g->mesh) : 0;
    default:
      return 0;
  }
}

/* The inertia each link would have about its centre of mass if its mass
 * filled its solid geoms uniformly (as docs/format.md computes it when no
 * inertia is given), into J (nlink); V (nlink) gets the links' solid
 * volumes, 0 for a link without a solid geom. One pass over the geoms for
 * the volumes, one for the tensors. */
static void reference_inertias(const lk_model *m, double *V, lk_mat3 *J) {
  for (int i = 0; i < m->nlink; i++) {
    V[i] = 0;
    J[i] = lk_m3_zero();
  }
  for (int g = 0; g < m->ngeom; g++) V[m->geom_link[g]] += lk_geom_volume(&m->geom[g].spec);
  for (int g = 0; g < m->ngeom; g++) {
    const lk_geom_spec *gs = &m->geom[g].spec;
    int i = m->geom_link[g];
    double v = lk_geom_volume(gs);
    if (i == 0 || !(v > 0) || !(V[i] > 0) || !isfinite(V[i])) continue;
    const lk_link_rec *r = &m->link[i];
    double mi = r->mass * v / V[i];
    lk_mat3 Ig;
    lk_vec3 c = gs->pose.p;
    if (gs->type == LK_GEOM_MESH) {
      lk_mat3 Iu = lk_mesh_inertia(gs->mesh);
      Ig = lk_m3_scale(&Iu, mi / v);
      c = lk_tf_point(&gs->pose, lk_mesh_centroid(gs->mesh));
    } else if (lk_geom_solid_inertia(gs->type, gs->size, mi, &Ig, NULL)) {
      continue;
    }
    lk_mat3 Ir = lk_m3_rotate_tensor(&gs->pose.R, &Ig);
    lk_vec3 d = lk_v3_sub(c, r->com);
    double d2 = lk_v3_norm2(d), dv[3] = {d.x, d.y, d.z};
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        J[i].m[a][b] += Ir.m[a][b] + mi * ((a == b ? d2 : 0) - dv[a] * dv[b]);
  }
}

/* The largest ratio u'Ju / u'Iu over directions u: the largest eigenvalue
 * of I^-1/2 J I^-1/2 (I positive definite: finalize checked it). */
static double inertia_ratio(const lk_mat3 *I, const lk_mat3 *J) {
  lk_vec3 ev;
  lk_mat3 V;
  lk_m3_sym_eigen(I, &ev, &V);
  double s[3] = {1 / sqrt(ev.x), 1 / sqrt(ev.y), 1 / sqrt(ev.z)};
  lk_mat3 W; /* V diag(s) V^T = I^-1/2 */
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      double x = 0;
      for (int k = 0; k < 3; k++) x += V.m[a][k] * s[k] * V.m[b][k];
      W.m[a][b] = x;
    }
  lk_mat3 WJ = lk_m3_mul(&W, J), A = lk_m3_mul(&WJ, &W);
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++) A.m[a][b] = A.m[b][a] = 0.5 * (A.m[a][b] + A.m[b][a]);
  lk_vec3 ea;
  lk_m3_sym_eigen(&A, &ea, NULL);
  return ea.z;
}

/* The largest |eigenvalue| of one step of semi-implicit Euler on
 * M x'' = -k x - b x' with the damping implicit (as the step takes joint
 * damping): v+ = (M v - h k x) / (M + h b), x+ = x + h v+. With
 * a = h^2 k / (M + h b), c = M / (M + h b) the step's matrix has
 * lambda^2 - (1 - a + c) lambda + c = 0; it is stable for a < 2 (1 + c). */
double lk_model_spring_growth(double M, double k, double b, double h) {
  double den = M + h * b, a = h * h * k / den, c = M / den;
  if (!isfinite(a)) return INFINITY;
  double p = 1 - a + c, disc = p * p - 4 * c;
  if (disc < 0) return sqrt(c);
  return 0.5 * (fabs(p) + sqrt(disc));
}

/* Each DoF's diagonal of the mass matrix at the reference configuration
 * (every joint at zero), armature included, into M (nv): the composite
 * inertia of the DoF's subtree seen along its axis. */
static lk_status reference_mass_diagonal(const lk_model *m, double *M) {
  lk_inertia *Ic = lk_calloc((size_t)m->nlink, sizeof *Ic);
  if (!Ic) return LK_OUT_OF_MEMORY;
  for (int i = 0; i < m->nlink; i++) Ic[i] = m->inertia[i];
  for (int i = m->nlink - 1; i >= 1; i--) {
    int p = m->parent[i];
    lk_inertia t = lk_tf_inertia(&m->link[i].origin, &Ic[i]);
    Ic[p] = lk_inertia_add(&Ic[p], &t);
  }
  for (int i = 1; i < m->nlink; i++) {
    const lk_inertia *I = &Ic[i];
    double *d = M + m->vadr[i];
    lk_vec3 a = m->axis[i];
    switch (m->jtype[i]) {
      case LK_JOINT_REVOLUTE: {
        lk_vec3 Ia = lk_m3_mulv(&I->I, a);
        d[0] = lk_v3_dot(a, Ia);
        break;
      }
      case LK_JOINT_PRISMATIC:
        d[0] = I->m;
        break;
      case LK_JOINT_BALL:
        for (int k = 0; k < 3; k++) d[k] = I->I.m[k][k];
        break;
      case LK_JOINT_FREE:
        for (int k = 0; k < 3; k++) d[k] = I->m, d[3 + k] = I->I.m[k][k];
        break;
      default:
        break;
    }
  }
  for (int k = 0; k < m->nv; k++) M[k] += m->dof_armature[k];
  lk_free(Ic);
  return LK_OK;
}

/* The displacement a DoF's products are judged at: a full turn, or ten
 * times the mechanism's largest length (1 m at least). */
static double dof_scale(const lk_model *m, int dof) {
  int i = m->dof_link[dof], k = dof - m->vadr[i];
  int linear = m->jtype[i] == LK_JOINT_PRISMATIC || (m->jtype[i] == LK_JOINT_FREE && k < 3);
  return linear ? 10 * fmax(m->length_scale, 1) : 2 * LK_PI;
}

/* h^2 k and h b, and the force and its rate at the DoF's scale x:
 * k x and b x / h, finite. */
static int products_finite(double k, double b, double h, double x) {
  return isfinite(h * h * k) && isfinite(h * b) && isfinite(k * x) && isfinite(b * x / h);
}

static const char *dof_axis(const lk_model *m, int dof) {
  static const char *const names[] = {"x", "y", "z", "rx", "ry", "rz"};
  int i = m->dof_link[dof], k = dof - m->vadr[i];
  if (m->jnv[i] == 1) return "";
  return m->jtype[i] == LK_JOINT_BALL ? names[3 + k] : names[k];
}

static lk_status check_plausible(lk_model *m, lk_error *err) {
  const double h = m->opt.timestep, g = lk_v3_norm(m->opt.gravity);
  /* Length scales: the largest distance the description places anything
   * at (geoms' reach from their frames, link origins, centres of mass),
   * the smallest extent of a solid on a moving link. */
  double L = 0, Lmin = INFINITY;
  int Lmin_geom = -1;
  for (int gi = 0; gi < m->ngeom; gi++) {
    const lk_geom_spec *gs = &m->geom[gi].spec;
    if (gs->type == LK_GEOM_PLANE) continue;
    L = fmax(L, lk_v3_norm(gs->pose.p) + geom_radius(gs));
    double e = lk_model_geom_extent(gs);
    if (m->geom_link[gi] > 0 && m->link_tree[m->geom_link[gi]] >= 0 && e < Lmin) {
      Lmin = e;
      Lmin_geom = gi;
    }
  }
  for (int i = 1; i < m->nlink; i++)
    L = fmax(L, fmax(lk_v3_norm(m->link[i].origin.p), lk_v3_norm(m->link[i].com)));
  m->length_scale = L;

  /* The timestep against gravity: one step from rest falls g h^2. */
  if (L > 0 && g * h * h > LK_PLAUSIBLE_FALL_ERROR * L)
    return lk_error_set(err, LK_INVALID_MODEL,
                        "options: timestep %g s is far too large: one step falls g h^2 = %g m, "
                        "more than %g times the mechanism's largest length (%g m)",
                        h, g * h * h, LK_PLAUSIBLE_FALL_ERROR, L);
  if (Lmin_geom >= 0 && g * h * h > Lmin) {
    const lk_geom_spec *gs = &m->geom[Lmin_geom].spec;
    add_warning(m, "options: timestep %g s: one step falls g h^2 = %g m, more than a geom of link '%s'%s%s%s "
            "is thick (%g m): contacts may be missed",
         h, g * h * h, m->link[m->geom_link[Lmin_geom]].name, gs->name ? " ('" : "",
         gs->name ? gs->name : "", gs->name ? "')" : "", Lmin);
  }

  /* Inertia against the uniform solids of the link's geoms. */
  double *V = lk_calloc((size_t)m->nlink, sizeof *V);
  lk_mat3 *J = lk_calloc((size_t)m->nlink, sizeof *J);
  if (!V || !J) {
    lk_free(V);
    lk_free(J);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory finalizing the model");
  }
  reference_inertias(m, V, J);
  for (int i = 1; i < m->nlink; i++) {
    const lk_link_rec *r = &m->link[i];
    if (!(r->mass > 0) || !(V[i] > 0) || !isfinite(V[i])) continue;
    double rho = inertia_ratio(&r->inertia, &J[i]);
    if (!(rho <= LK_PLAUSIBLE_INERTIA_ERROR)) {
      lk_free(V);
      lk_free(J);
      return lk_error_set(err, LK_INVALID_MODEL,
                          "link '%s': inertia is %.3g times below that of its geoms as uniform "
                          "solids of mass %g kg (limit %g): the step cannot resolve it",
                          r->name, rho, r->mass, LK_PLAUSIBLE_INERTIA_ERROR);
    }
    if (rho > LK_PLAUSIBLE_INERTIA_WARN)
      add_warning(m, "link '%s': inertia is %.3g times below that of its geoms as uniform solids",
           r->name, rho);
  }
  lk_free(V);
  lk_free(J);

  /* Joint springs and dampers, servos: the DoF's inertia at the reference
   * configuration against the step. */
  if (m->nv == 0) goto done;
  double *M = lk_calloc((size_t)m->nv, sizeof *M);
  if (!M || reference_mass_diagonal(m, M)) {
    lk_free(M);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory finalizing the model");
  }
  lk_status st = LK_OK;
  int warned_spring = 0;
  for (int k = 0; k < m->nv && !st; k++) {
    const lk_joint_spec *j = &m->link[m->dof_link[k]].joint;
    double kk = m->dof_stiffness[k], b = m->dof_damping[k];
    if (!products_finite(kk, b, h, dof_scale(m, k))) {
      st = lk_error_set(err, LK_INVALID_MODEL,
                        "joint '%s': stiffness %g or damping %g overflows (timestep %g s, a "
                        "displacement of %g)",
                        j->name, kk, b, h, dof_scale(m, k));
      break;
    }
    if (!(kk > 0) || !(M[k] > 0)) continue;
    double grow = lk_model_spring_growth(M[k], kk, b, h);
    double period = 2 * LK_PI * sqrt(M[k] / kk);
    if (!(grow <= LK_PLAUSIBLE_GROWTH_ERROR))
      st = lk_error_set(err, LK_INVALID_MODEL,
                        "joint '%s': stiffness %g is far too high for timestep %g s: its spring "
                        "(period %.3g s) grows %.3g-fold a step, overflowing within 100 steps",
                        j->name, kk, h, period, fmin(grow, DBL_MAX));
    else if (period < LK_PLAUSIBLE_PERIOD_WARN * h && !warned_spring++)
      add_warning(m, "joint '%s'%s%s: stiffness %g: spring period %.3g s is %.3g timesteps (below %g)%s",
           j->name, *dof_axis(m, k) ? " " : "", dof_axis(m, k), kk, period, period / h,
           LK_PLAUSIBLE_PERIOD_WARN, grow > 1 ? ": unstable" : "");
  }
  for (int a = 0; a < m->nact && !st; a++) {
    const lk_actuator_rec *ar = &m->act[a];
    const lk_actuator_spec *s = &ar->spec;
    double x = ar->dof >= 0 ? dof_scale(m, ar->dof) : 2 * LK_PI;
    if (!products_finite(s->kp, s->kv, h, x)) {
      st = lk_error_set(err, LK_INVALID_MODEL,
                        "actuator '%s': kp %g or kv %g overflows (timestep %g s, a displacement "
                        "of %g)",
                        ar->name, s->kp, s->kv, h, x);
      break;
    }
    if (s->type != LK_ACTUATOR_POSITION || !(s->kp > 0) || ar->dof < 0 || !(M[ar->dof] > 0))
      continue;
    double period = 2 * LK_PI * sqrt(M[ar->dof] / s->kp);
    if (period < LK_PLAUSIBLE_PERIOD_WARN * h)
      add_warning(m, "actuator '%s': kp %g: servo period %.3g s is %.3g timesteps (below %g)", ar->name,
           s->kp, period, period / h, LK_PLAUSIBLE_PERIOD_WARN);
  }
  lk_free(M);
  if (st) return st;

  /* Compliant contact: explicit springs (hooke's k_n, the linear history
   * models' k_t) on the lightest link carrying a geom of the material. */
  for (int mi = 0; mi < m->nmat; mi++) {
    const lk_material_spec *ms = &m->mat[mi];
    if (ms->contact != LK_CONTACT_COMPLIANT) continue;
    double mass = INFINITY;
    for (int gi = 0; gi < m->ngeom; gi++)
      if (m->geom_mat[gi] == mi && m->geom_link[gi] > 0) {
        double ml = m->link[m->geom_link[gi]].mass;
        if (ml > 0 && ml < mass) mass = ml;
      }
    if (!isfinite(mass)) continue;
    double x = 10 * fmax(m->length_scale, 1);
    if (!products_finite(ms->k_n, ms->damping, h, x) || !products_finite(ms->k_t, 0, h, x))
      return lk_error_set(err, LK_INVALID_MODEL,
                          "material '%s': k_n %g, k_t %g or damping %g overflows (timestep %g s, "
                          "a displacement of %g m)",
                          ms->name, ms->k_n, ms->k_t, ms->damping, h, x);
    int linear_t = ms->tangential == LK_TANGENTIAL_LINEAR_HISTORY ||
                   ms->tangential == LK_TANGENTIAL_LINEAR_HISTORY_STATIC;
    for (int t = 0; t < 2; t++) {
      double k = t == 0 ? ms->k_n : ms->k_t;
      if ((t == 0 && ms->normal != LK_NORMAL_HOOKE) || (t == 1 && !linear_t) || !(k > 0)) continue;
      const char *kn = t == 0 ? "k_n" : "k_t";
      double grow = lk_model_spring_growth(mass, k, 0, h);
      double period = 2 * LK_PI * sqrt(mass / k);
      if (!(grow <= LK_PLAUSIBLE_GROWTH_ERROR))
        return lk_error_set(err, LK_INVALID_MODEL,
                            "material '%s': %s %g is far too high for timestep %g s: on %g kg the "
                            "contact spring (period %.3g s) grows %.3g-fold a step",
                            ms->name, kn, k, h, mass, period, fmin(grow, DBL_MAX));
      if (period < LK_PLAUSIBLE_PERIOD_WARN * h)
        add_warning(m, "material '%s': %s %g: contact period on %g kg is %.3g timesteps (below %g)",
                    ms->name, kn, k, mass, period / h, LK_PLAUSIBLE_PERIOD_WARN);
    }
  }
done:
  return LK_OK;
}

lk_status lk_model_check_plausible(lk_model *m, int warnings, lk_error *err) {
  const int nwarn0 = m->nwarn;
  lk_status st = check_plausible(m, err);
  if (!warnings) m->nwarn = nwarn0; /* the options changed: errors only */
  return st;
}
