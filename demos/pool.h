/* A parallel map for the grasp planner: threads within a process and, when
 * built with Open MPI and run under mpirun, processes across machines.
 *
 * Every process runs the same program (SPMD) and calls pool_map for the
 * same phases in the same order; only rank 0's items count. Rank 0 hands
 * out chunks of items on request (dynamic load balancing: a rank that
 * finishes early asks again) and works on the same pool with its own
 * threads; results come back to rank 0 by item index, so what rank 0 ends
 * with does not depend on how many ranks there are or in which order they
 * finish. Only the main thread of a process calls MPI (MPI_THREAD_FUNNELED).
 * Item inputs and results travel as bytes: every rank must run the same
 * binary on the same kind of machine (a homogeneous cluster). */
#ifndef LK_DEMOS_POOL_H
#define LK_DEMOS_POOL_H

#include <stddef.h>

typedef struct pool pool;

/* fn(ctx, thread, in, out): one item, on worker thread `thread` (0 ..
 * jobs - 1) of the calling process. */
typedef void (*pool_fn)(void *ctx, int thread, const void *in, void *out);

/* Start: MPI_Init_thread when built with MPI and started by a launcher
 * (mpirun: its environment says so; argc/argv passed on), then `jobs`
 * worker threads per process. NULL on failure (message printed). */
pool *pool_new(int jobs, int *argc, char ***argv);
/* End: joins the threads, MPI_Finalize. */
void pool_free(pool *p);

int pool_rank(const pool *p); /* 0 without MPI */
int pool_size(const pool *p); /* 1 without MPI */
int pool_jobs(const pool *p);

/* Run fn over items 0..n-1 (n, in: rank 0's; other ranks pass 0 and NULL
 * and serve until rank 0 has no more). On rank 0, out[i] (out_size bytes
 * each) receives item i's result. progress(pctx, done), when given, is
 * called on rank 0's main thread now and then with the number of items
 * done. Returns 0, or -1 if a message could not be sent or received. */
int pool_map(pool *p, void *ctx, pool_fn fn, int n, const void *in, size_t in_size, void *out,
             size_t out_size, void (*progress)(void *pctx, int done), void *pctx);

/* Rank 0 broadcasts an int to every rank (the same value everywhere after:
 * a decision only rank 0 can make, such as an exit status). */
int pool_bcast_int(pool *p, int value);

#endif
