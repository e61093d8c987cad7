/* The grasp planner's parallel map (pool.h): worker threads pulling items
 * from a shared counter, and with MPI a dispatcher on rank 0 that hands
 * chunks of the same counter's items to the other ranks. */
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"

#ifdef HAVE_MPI
#include <mpi.h>
#endif

enum { TAG_REQUEST = 1, TAG_REPLY = 2 };

struct pool {
  int jobs, rank, size;
  int mpi; /* MPI was initialized (the program runs under mpirun) */
  pthread_t *th;
  int nthreads;
  pthread_mutex_t mu;
  pthread_cond_t work, idle;
  int generation, active, quit;
  /* The task: items [0, limit) of in/out, taken one at a time. */
  void *ctx;
  pool_fn fn;
  const char *in;
  char *out;
  size_t in_size, out_size;
  int limit;
  atomic_int next, done;
};

typedef struct {
  pool *p;
  int id;
} worker_arg;

static void *worker(void *arg) {
  worker_arg *w = arg;
  pool *p = w->p;
  int seen = 0;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (!p->quit && p->generation == seen) pthread_cond_wait(&p->work, &p->mu);
    if (p->quit) {
      pthread_mutex_unlock(&p->mu);
      break;
    }
    seen = p->generation;
    pthread_mutex_unlock(&p->mu);
    for (;;) {
      int i = atomic_fetch_add(&p->next, 1);
      if (i >= p->limit) break;
      p->fn(p->ctx, w->id, p->in + (size_t)i * p->in_size, p->out + (size_t)i * p->out_size);
      atomic_fetch_add(&p->done, 1);
    }
    pthread_mutex_lock(&p->mu);
    if (--p->active == 0) pthread_cond_signal(&p->idle);
    pthread_mutex_unlock(&p->mu);
  }
  free(w);
  return NULL;
}

static void start(pool *p, void *ctx, pool_fn fn, int n, const void *in, size_t in_size,
                  void *out, size_t out_size) {
  pthread_mutex_lock(&p->mu);
  p->ctx = ctx;
  p->fn = fn;
  p->in = in;
  p->out = out;
  p->in_size = in_size;
  p->out_size = out_size;
  p->limit = n;
  atomic_store(&p->next, 0);
  atomic_store(&p->done, 0);
  p->active = p->nthreads;
  p->generation++;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

static int idle_now(pool *p) {
  pthread_mutex_lock(&p->mu);
  int idle = p->active == 0;
  pthread_mutex_unlock(&p->mu);
  return idle;
}

static void wait_idle(pool *p) {
  pthread_mutex_lock(&p->mu);
  while (p->active > 0) pthread_cond_wait(&p->idle, &p->mu);
  pthread_mutex_unlock(&p->mu);
}

static void nap(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#ifdef HAVE_MPI
/* Waiting without spinning. Open MPI's blocking calls poll at full speed
 * (with --oversubscribe, yielding between polls): a rank waiting for rank
 * 0 takes a core's worth of CPU from the ranks and threads that work, on a
 * shared or oversubscribed machine. These test and sleep instead, from
 * 20 us up to 1 ms, so an answer is seen within about a millisecond. */
static void settle(MPI_Request *req) {
  long us = 20;
  for (;;) {
    int flag = 0;
    MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    if (flag) return;
    nap(us);
    if (us < 1000) us *= 2;
  }
}

static void probe_quietly(int source, int tag, MPI_Status *status) {
  long us = 20;
  for (;;) {
    int flag = 0;
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, status);
    if (flag) return;
    nap(us);
    if (us < 1000) us *= 2;
  }
}
#endif

pool *pool_new(int jobs, int *argc, char ***argv) {
  pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->jobs = jobs;
  p->size = 1;
#ifdef HAVE_MPI
  /* MPI only under a launcher (mpirun sets these): a plain run stays a
   * plain process, without MPI's start-up or its memory held to the end. */
  if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK")) {
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      fprintf(stderr, "grasp-planner: MPI_Init_thread failed\n");
      free(p);
      return NULL;
    }
    p->mpi = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &p->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p->size);
  }
#else
  (void)argc;
  (void)argv;
#endif
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->idle, NULL);
  p->th = calloc((size_t)jobs, sizeof *p->th);
  if (!p->th) {
    pool_free(p);
    return NULL;
  }
  for (int j = 0; j < jobs; j++) {
    worker_arg *w = malloc(sizeof *w);
    if (!w) break;
    w->p = p;
    w->id = j;
    if (pthread_create(&p->th[j], NULL, worker, w) != 0) {
      free(w);
      break;
    }
    p->nthreads++;
  }
  if (p->nthreads == 0) {
    fprintf(stderr, "grasp-planner: cannot start a worker thread\n");
    pool_free(p);
    return NULL;
  }
  return p;
}

void pool_free(pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->quit = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int j = 0; j < p->nthreads; j++) pthread_join(p->th[j], NULL);
  free(p->th);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->idle);
#ifdef HAVE_MPI
  if (p->mpi) MPI_Finalize();
#endif
  free(p);
}

int pool_rank(const pool *p) { return p->rank; }
int pool_size(const pool *p) { return p->size; }
int pool_jobs(const pool *p) { return p->nthreads; }

int pool_bcast_int(pool *p, int value) {
#ifdef HAVE_MPI
  if (p->size > 1) {
    MPI_Request req;
    MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    settle(&req);
  }
#else
  (void)p;
#endif
  return value;
}

/* Threads only: run, reporting progress every 50 ms. */
static int map_local(pool *p, void *ctx, pool_fn fn, int n, const void *in, size_t in_size,
                     void *out, size_t out_size, void (*progress)(void *, int), void *pctx) {
  start(p, ctx, fn, n, in, in_size, out, out_size);
  if (progress)
    while (!idle_now(p)) {
      progress(pctx, atomic_load(&p->done));
      nap(50000);
    }
  wait_idle(p);
  if (progress) progress(pctx, n);
  return 0;
}

#ifdef HAVE_MPI
/* The chunk a rank gets: what it does in about kChunkTime (its own speed
 * measured on its last chunk, else rank 0's so far, else one item per
 * thread), at most a share of what is left (left / (2 x all threads), so
 * that the ranks finish together) and at most 256 items. Trials (0.1 s and
 * more) then go one at a time and screens (under a millisecond) by tens,
 * and a slow rank (a loaded machine, a slower node) gets smaller chunks. */
#define kChunkTime 0.02

static int chunk_for(const pool *p, int n, double per_item, double t0, int done_here) {
  int left = n - atomic_load(&p->next);
  int jobs_all = p->size * p->nthreads;
  int cap = left / (2 * jobs_all);
  if (cap < 1) cap = 1;
  if (cap > 256) cap = 256;
  if (!(per_item > 0) && done_here > 0) per_item = (seconds() - t0) / done_here;
  double want = per_item > 0 ? kChunkTime / per_item : p->nthreads;
  if (want < 1) want = 1;
  return want < cap ? (int)want : cap;
}

/* Rank 0: serve chunks to the other ranks while its own threads work on
 * the same counter. */
static int map_root(pool *p, void *ctx, pool_fn fn, int n, const void *in, size_t in_size,
                    void *out, size_t out_size, void (*progress)(void *, int), void *pctx) {
  double t0 = seconds();
  start(p, ctx, fn, n, in, in_size, out, out_size);
  int stopped = 0, remote_done = 0, rc = 0;
  char *buf = NULL;
  size_t cap = 0;
  /* Per rank: when its last chunk went out, how many items, and the time
   * an item took it (0: not known yet). */
  double *sent_at = calloc((size_t)p->size, sizeof *sent_at);
  double *per_item = calloc((size_t)p->size, sizeof *per_item);
  int *sent_n = calloc((size_t)p->size, sizeof *sent_n);
  if (!sent_at || !per_item || !sent_n) rc = -1;
  while (!rc && stopped < p->size - 1) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, &flag, &status);
    if (!flag) {
      if (progress) progress(pctx, atomic_load(&p->done) + remote_done);
      nap(200);
      continue;
    }
    int bytes;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    if ((size_t)bytes > cap) {
      char *nb = realloc(buf, (size_t)bytes);
      if (!nb) {
        rc = -1;
        break;
      }
      buf = nb;
      cap = (size_t)bytes;
    }
    MPI_Recv(buf, bytes, MPI_BYTE, status.MPI_SOURCE, TAG_REQUEST, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    int nres;
    memcpy(&nres, buf, sizeof nres);
    const char *q = buf + sizeof nres;
    for (int k = 0; k < nres; k++) {
      int idx;
      memcpy(&idx, q, sizeof idx);
      q += sizeof idx;
      if (idx >= 0 && idx < n) memcpy((char *)out + (size_t)idx * out_size, q, out_size);
      q += out_size;
    }
    remote_done += nres;
    int src = status.MPI_SOURCE;
    double t = seconds();
    if (nres > 0 && sent_n[src] == nres) per_item[src] = (t - sent_at[src]) / nres;
    /* p->done counts rank 0's own items only. */
    int chunk = chunk_for(p, n, per_item[src], t0, atomic_load(&p->done));
    int first = atomic_fetch_add(&p->next, chunk);
    int count = first >= n ? 0 : (first + chunk > n ? n - first : chunk);
    size_t need = sizeof(int) + (size_t)count * (sizeof(int) + in_size);
    char *reply = malloc(need);
    if (!reply) {
      rc = -1;
      break;
    }
    int tell = count > 0 ? count : -1;
    memcpy(reply, &tell, sizeof tell);
    char *r = reply + sizeof tell;
    for (int k = 0; k < count; k++) {
      int idx = first + k;
      memcpy(r, &idx, sizeof idx);
      r += sizeof idx;
      memcpy(r, (const char *)in + (size_t)idx * in_size, in_size);
      r += in_size;
    }
    sent_at[src] = seconds();
    sent_n[src] = count;
    MPI_Send(reply, (int)need, MPI_BYTE, src, TAG_REPLY, MPI_COMM_WORLD);
    free(reply);
    if (count == 0) stopped++;
  }
  free(buf);
  free(sent_at);
  free(per_item);
  free(sent_n);
  wait_idle(p);
  if (progress) progress(pctx, n);
  return rc;
}

/* Another rank: ask rank 0 for chunks and work them until it says stop. */
static int map_worker(pool *p, void *ctx, pool_fn fn, size_t in_size, size_t out_size) {
  char *inb = NULL, *outb = NULL, *req = NULL;
  int *idx = NULL, nres = 0, rc = 0;
  size_t cap = 0;
  for (;;) {
    size_t need = sizeof(int) + (size_t)nres * (sizeof(int) + out_size);
    char *nr = realloc(req, need);
    if (!nr) {
      rc = -1;
      break;
    }
    req = nr;
    memcpy(req, &nres, sizeof nres);
    char *q = req + sizeof nres;
    for (int k = 0; k < nres; k++) {
      memcpy(q, &idx[k], sizeof idx[k]);
      q += sizeof idx[k];
      memcpy(q, outb + (size_t)k * out_size, out_size);
      q += out_size;
    }
    MPI_Request sent;
    MPI_Isend(req, (int)need, MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD, &sent);
    settle(&sent);
    MPI_Status status;
    probe_quietly(0, TAG_REPLY, &status);
    int bytes;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    char *reply = malloc((size_t)bytes);
    if (!reply) {
      rc = -1;
      break;
    }
    MPI_Recv(reply, bytes, MPI_BYTE, 0, TAG_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int count;
    memcpy(&count, reply, sizeof count);
    if (count < 0) {
      free(reply);
      break;
    }
    if ((size_t)count > cap) {
      char *ni = realloc(inb, (size_t)count * in_size), *no = realloc(outb, (size_t)count * out_size);
      int *nx = realloc(idx, (size_t)count * sizeof *idx);
      if (ni) inb = ni;
      if (no) outb = no;
      if (nx) idx = nx;
      if (!ni || !no || !nx) {
        free(reply);
        rc = -1;
        break;
      }
      cap = (size_t)count;
    }
    const char *r = reply + sizeof count;
    for (int k = 0; k < count; k++) {
      memcpy(&idx[k], r, sizeof idx[k]);
      r += sizeof idx[k];
      memcpy(inb + (size_t)k * in_size, r, in_size);
      r += in_size;
    }
    free(reply);
    start(p, ctx, fn, count, inb, in_size, outb, out_size);
    wait_idle(p);
    nres = count;
  }
  free(inb);
  free(outb);
  free(req);
  free(idx);
  return rc;
}
#endif

int pool_map(pool *p, void *ctx, pool_fn fn, int n, const void *in, size_t in_size, void *out,
             size_t out_size, void (*progress)(void *pctx, int done), void *pctx) {
#ifdef HAVE_MPI
  if (p->size > 1) {
    if (p->rank == 0) return map_root(p, ctx, fn, n, in, in_size, out, out_size, progress, pctx);
    return map_worker(p, ctx, fn, in_size, out_size);
  }
#endif
  return map_local(p, ctx, fn, n, in, in_size, out, out_size, progress, pctx);
}
