/* The model's layout, shared by the library's layers (not installed).
 *
 * After lk_model_finalize() every per-link array is indexed by link (0 is
 * the world, parents before children) and every per-DoF array by velocity
 * index. Layers read these directly; nothing here changes after finalize
 * except `opt` (through lk_model_set_options). */
#ifndef LK_MODEL_IMPL_H
#define LK_MODEL_IMPL_H

#include "core/names.h"
#include "linkage/model.h"

typedef struct {
  char *name;
  char *parent_name; /* as given (NULL: world) */
  lk_transform origin;
  lk_joint_spec joint; /* joint.name owned (never NULL after finalize) */
  double mass;
  lk_vec3 com;
  lk_mat3 inertia; /* about com */
} lk_link_rec;

typedef struct {
  char *name; /* may be NULL */
  char *link_name;
  char *material_name;
  lk_mesh *mesh;     /* LK_GEOM_MESH: owned copy (NULL otherwise) */
  lk_geom_spec spec; /* strings and the mesh in spec point at the fields above */
} lk_geom_rec;

typedef struct {
  char *joint;
  double q[7], v[6];
  int nq, nv; /* counts given (0 when that part was not given) */
  int has_q, has_v;
} lk_initial_rec;

/* Elements referenced by name; indices resolved at finalize. Each record
 * owns its strings and the spec's pointers point at them. */
typedef struct {
  lk_actuator_spec spec;
  char *name, *joint;
  double *sched; /* 2 * nschedule: times then efforts */
  int link, dof; /* resolved */
} lk_actuator_rec;

typedef struct {
  lk_load_spec spec;
  char *name, *link_name;
  int link;
} lk_load_rec;

typedef struct {
  lk_contact_spec spec;
  char *name, *link_name, *other_name, *material_name;
  int link, other, mat;
} lk_xcontact_rec;

typedef struct {
  lk_loop_spec spec;
  char *name, *a_name, *b_name;
  int link_a, link_b;
} lk_loop_rec;

typedef struct {
  lk_coupling_spec spec;
  char *name, *a_name, *b_name;
  int dof_a, dof_b;
} lk_coupling_rec;

typedef struct {
  lk_tether_spec spec;
  char *name, *link_name, *other_name;
  int link, other;
} lk_tether_rec;

typedef struct {
  lk_support_spec spec;
  char *name, *joint_name, *link_name;
  int link; /* the link whose joint (joint supports) or point it is */
  int dof;  /* joint supports: the DoF; point supports: -1 */
} lk_support_rec;

#define LK_MODEL_MAX_WARNINGS 16

struct lk_model {
  int finalized;
  char *name;
  lk_options opt;

  /* ---- builder staging (in insertion order) ---- */
  lk_link_rec *staged;
  int nstaged, cap_staged;
  lk_geom_rec *geoms_in;
  int ngeom_in, cap_geom;
  lk_material_spec *mats_in; /* names owned */
  int nmat_in, cap_mat;
  lk_initial_rec *inits;
  int ninit, cap_init;

  /* ---- finalized (link 0 = world) ---- */
  int nlink, nq, nv, ngeom, nmat;
  lk_link_rec *link;   /* link[0] is the world (name "world", no joint) */
  lk_name_index link_index, joint_index; /* link[i].name, .joint.name -> i */
  int *parent;         /* -1 for the world */
  lk_joint_type *jtype;
  int *qadr, *vadr, *jnq, *jnv;
  lk_vec3 *axis;          /* unit, in the joint frame */
  lk_inertia *inertia;    /* spatial inertia of each link about its origin */
  int *nchild, **child;   /* children lists (into one block) */
  int *subtree_end;       /* links i..subtree_end[i]-1 are i's subtree */

  /* per DoF */
  int *dof_link;    /* link owning the DoF */
  int *dof_parent;  /* previous DoF on the path to the root, -1 (the tree
                       sparsity pattern of M: lambda(i) in Featherstone 6.5) */
  double *dof_armature, *dof_damping, *dof_stiffness, *dof_friction;
  /* 0 where the DoF's rate makes no velocity product: a lone free body
   * (no parent link, no child) centred at its origin with equal principal
   * moments -- a sphere, a cube -- has none (w x I w = 0, and its
   * translation's terms cancel), so its rates do not call for step.c's
   * midpoint passes; 1 elsewhere */
  unsigned char *dof_products;

  /* Trees of DoFs: the connected components of the dof_parent forest. No
   * DoF of one tree is an ancestor of another's, so the mass matrix is block
   * diagonal over them (lib/dynamics stores one dense block per tree), and
   * preorder makes each tree a contiguous range of DoFs. A root link with a
   * moving joint makes one tree of its whole subtree; the moving children
   * of a link welded to the world make one tree each. */
  int ntree;
  int *tree_vadr;    /* ntree + 1: tree t is DoFs [tree_vadr[t], tree_vadr[t + 1]) */
  size_t *tree_madr; /* ntree + 1: offset of tree t's n_t x n_t block when the blocks
                        are stored one after another; tree_madr[ntree] = sum n_t^2 */
  int *dof_tree;     /* per DoF: its tree */
  int *link_tree;    /* per link: the tree whose DoFs move it (that of its nearest
                        ancestor-or-self with a DoF), -1 for links welded to the
                        world and for the world */

  /* geoms and materials (material 0 is the default) */
  lk_geom_rec *geom; /* finalized order = insertion order */
  int *geom_link, *geom_mat;
  lk_material_spec *mat;

  double *q_neutral; /* nq */
  double *q_init;    /* nq */
  double *v_init;    /* nv */
  /* actuators, loads, explicit contacts, loops, couplings, tethers */
  lk_actuator_rec *act;
  int nact, cap_act;
  int nprescribed;   /* actuators of a prescribed type (rows every step) */
  lk_load_rec *load;
  int nload, cap_load;
  lk_xcontact_rec *xcon;
  int nxcon, cap_xcon;
  lk_loop_rec *loop;
  int nloop, cap_loop;
  struct lk_excl_rec {
    char *a_name, *b_name; /* as added */
    int a, b;              /* links, resolved at finalize */
  } *excl;
  int nexcl, cap_excl;
  struct lk_gpair_rec {
    char *a_name, *b_name, *mat_name; /* as added */
    int a, b, mat;                    /* geoms and material (-1: mixed),
                                         resolved at finalize */
  } *gpair;
  int ngpair, cap_gpair;
  unsigned char *in_gpair; /* ngeom: the geom is in some pair (finalize) */
  struct lk_sensor_rec {
    lk_sensor_spec spec;
    char *name, *joint, *link; /* owned; spec's point at them */
    int l;                     /* the joint's or the link's index (finalize) */
  } *sensor;
  int nsensor, cap_sensor;
  struct lk_key_rec {
    char *name;
    int n;        /* joints named */
    char **joint; /* n */
    int *nq, *qadr; /* n; qadr resolved at finalize */
    double *q;    /* sum of nq */
  } *key;
  int nkey, cap_key;
  lk_coupling_rec *coup;
  int ncoup, cap_coup;
  lk_tether_rec *teth;
  int nteth, cap_teth;
  lk_support_rec *sup;
  int nsup, cap_sup;
  int ncompliant_mat; /* materials with compliant contact */

  int nwarn;
  char warn[LK_MODEL_MAX_WARNINGS][256];
  double length_scale; /* the largest distance the description places anything
                          at (plausible.c), m; 0 if none */

  double total_mass;
  int contact_capacity; /* contacts an lk_data can hold (options or auto) */
};

/* Validation helpers (model.c, finalize.c). */
lk_status lk_model_check_options(const lk_options *o, lk_error *err);
int lk_model_finite_tf(const lk_transform *t);

/* elements.c: resolve and check the named elements (called by finalize once
 * links, joints and materials are in place), and free them. */
lk_status lk_model_finalize_elements(lk_model *m, lk_error *err);
void lk_model_free_elements(lk_model *m);
int lk_model_grow(void **arr, int *cap, int n, size_t elem);

/* plausible.c: parameters far outside what the step resolves (issue
 * 18.9; docs/format.md, "Physical plausibility"): errors, or warnings
 * added to the model's list (warnings 0: errors only, the list as it
 * was). Run by finalize on the built arrays, and by lk_model_set_options
 * on a finalized model. */
lk_status lk_model_check_plausible(lk_model *m, int warnings, lk_error *err);
/* Volume of a solid geom (a mesh's hull; 0 for a plane). */
double lk_geom_volume(const lk_geom_spec *g);
/* A geom's smallest extent (a box's smallest half extent, a radius, ...);
 * INFINITY for planes and meshes. */
double lk_model_geom_extent(const lk_geom_spec *g);
/* Per-step growth of a spring k with implicit damping b on inertia M. */
double lk_model_spring_growth(double M, double k, double b, double h);

/* Checks shared by the layers' public entry points. */
static inline int lk_model_ok(const lk_model *m) { return m && m->finalized; }

/* Sensors (sensor.c): names resolved at finalize; freed with the model. */
lk_status lk_model_finalize_sensors(lk_model *m, lk_error *err);
void lk_model_free_sensors(lk_model *m);

#endif
