/* Writes Siconos sparse-storage (type 2) versions of stored problems with
 * Siconos' own writer, as test data for Linkage's reader. */
#include <stdio.h>
#include <stdlib.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/NumericsSparseMatrix.h>
static NumericsMatrix *to_sparse(NumericsMatrix *A, int csc) {
  int n = A->size0;
  NumericsMatrix *S = NM_create(NM_SPARSE, n, A->size1);
  NM_triplet_alloc(S, 0);
  S->matrix2->origin = NSM_TRIPLET;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < A->size1; j++) {
      double v = NM_get_value(A, i, j);
      if (v != 0.0) NM_entry(S, i, j, v);
    }
  if (csc) { NM_csc(S); S->matrix2->origin = NSM_CSC; }
  return S;
}
int main(int argc, char **argv) {
  /* argv: kind(lcp|fc) in out form(0 triplet,1 csc) */
  int csc = atoi(argv[4]);
  FILE *o = fopen(argv[3], "w");
  if (argv[1][0] == 'l') {
    LinearComplementarityProblem *p = malloc(sizeof *p);
    linearComplementarity_newFromFilename(p, argv[2]);
    p->M = to_sparse(p->M, csc);
    linearComplementarity_printInFile(p, o);
  } else {
    FrictionContactProblem *p = frictionContact_new_from_filename(argv[2]);
    p->M = to_sparse(p->M, csc);
    frictionContact_printInFile(p, o);
  }
  fclose(o);
  return 0;
}
