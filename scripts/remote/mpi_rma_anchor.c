/*
 * mpi_rma_anchor.c - Open MPI's own one-sided put/get bandwidth and latency, measured the way
 * jshmem's perf suite measures put_bw, get_bw, put_latency and get_latency (docs/performance.md),
 * so that jshmem's remote transport (which rides on the same calls) compares with the MPI under it.
 *
 *   mpicc -O2 -o build/mpi_rma_anchor scripts/remote/mpi_rma_anchor.c
 *   mpirun -np 2 build/mpi_rma_anchor [--min 8] [--max 16M] [--reps 5] [--probe]
 *
 * Window: MPI_Win_create over a 2 MiB-aligned mmap'd region (as jshmem's heap is), MPI_Win_lock_all
 * once, passive target. Each case: a warm-up repetition, then --reps timed repetitions each after an
 * MPI_Barrier, PE 0 timing n operations with clock_gettime; the median, min and max go out as CSV
 * rows in the perf suite's format (library "mpi").
 *   put_bw:      n x (MPI_Put(size) + MPI_Win_flush_local)      (jshmem: n blocking puts + quiet)
 *   get_bw:      n x (MPI_Get(size) + MPI_Win_flush_local)      (jshmem: n blocking gets)
 *   put_nbi_bw:  n x MPI_Put(size) then MPI_Win_flush          (jshmem: n non-blocking puts + quiet)
 *   get_nbi_bw:  n x MPI_Get(size) then MPI_Win_flush          (jshmem: n non-blocking gets + quiet)
 *   put_latency: n x (MPI_Put(size) + MPI_Win_flush)            (jshmem: put + quiet)
 *   get_latency: n x (MPI_Get(size) + MPI_Win_flush_local)      (jshmem: blocking get)
 * A blocking put or get returns once its buffer may be reused (OpenSHMEM 1.5, 9.5): MPI_Win_flush_local is
 * the least MPI call that gives it.
 * n: 20000 below 64 KB, 500 below 4 MB, 20 above (bandwidth); 20000 for latency (as perf's put_latency).
 * Sizes: --min to --max, times --factor (default 2).
 *
 * --two-sided: the four blocking cases over MPI point-to-point, as jshmem's two-sided transport
 * (JSHMEM_REMOTE_PROTOCOL=messages) makes them: PE 1 serves requests (MPI_Recv of a 64-byte header and
 * the payload, then the answer), PE 0 sends a blocking put as header + payload and waits for a 0-byte
 * acknowledgement, a get as a header and waits for the bytes. Rows carry the library "mpi-2sided".
 *
 * --probe: the progress check. PE 1 spins on its own memory in C without calling MPI while PE 0
 * puts, accumulates, fetch-and-adds and compare-and-swaps into it; prints how long each took to be
 * seen (a put or atomic that never lands without the target in MPI would hang here: timeout 10 s).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <pthread.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static long parse_size(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'K' || *end == 'k') v <<= 10;
    else if (*end == 'M' || *end == 'm') v <<= 20;
    else if (*end == 'G' || *end == 'g') v <<= 30;
    return v;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static long factor = 2;
static int rank, reps = 5, probe_iprobe, progress_us;

/* --progress-thread US: a thread of each process enters MPI (MPI_Iprobe) every US microseconds. */
static volatile int stop_progress;
static void *progress_main(void *arg) {
    (void) arg;
    struct timespec d = {0, progress_us * 1000L};
    while (!stop_progress) { int flag; MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); nanosleep(&d, NULL); }
    return NULL;
}
static MPI_Win win;
static char *heap, *src;
static int two_sided;
static char *request;   /* --two-sided: a 64-byte header then the payload */

/* --two-sided, PE 1: applies requests until PE 0's end message (header word 0: 1 put, 2 get, 0 end). */
static void serve(long max) {
    for (;;) {
        MPI_Recv(request, (int) (max + 64), MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long kind = ((long *) request)[0], size = ((long *) request)[1];
        if (kind == 0) return;
        if (kind == 1) {
            memcpy(heap, request + 64, size);
            MPI_Send(heap, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        } else {
            MPI_Send(heap, (int) size, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        }
    }
}

/* --two-sided, PE 0: one blocking put or get. */
static void ask(int put, long size) {
    ((long *) request)[0] = put ? 1 : 2;
    ((long *) request)[1] = size;
    MPI_Send(request, (int) (put ? 64 + size : 64), MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    MPI_Recv(put ? heap : src, (int) (put ? 0 : size), MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* One timed case: returns the microseconds per operation of each repetition in t[]. */
static void run_case(const char *bench, long size, long n, double *t) {
    int put = bench[0] == 'p', nbi = strstr(bench, "_nbi") != NULL, lat = strstr(bench, "latency") != NULL;
    for (int r = -1; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now_us();
        if (two_sided) {
            if (rank == 0) {
                for (long i = 0; i < n; i++) ask(put, size);
                ((long *) request)[0] = 0;
                MPI_Send(request, 64, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            } else {
                serve(size);
            }
        } else if (rank == 0) {
            for (long i = 0; i < n; i++) {
                if (put) MPI_Put(src, (int) size, MPI_BYTE, 1, 0, (int) size, MPI_BYTE, win);
                else MPI_Get(src, (int) size, MPI_BYTE, 1, 0, (int) size, MPI_BYTE, win);
                if (put && lat) MPI_Win_flush(1, win);
                else if (!nbi) MPI_Win_flush_local(1, win);
            }
            if (nbi) MPI_Win_flush(1, win);
        }
        double us = (now_us() - t0) / n;
        if (r >= 0) t[r] = us;
    }
}

static void emit(const char *bench, const char *op, long size, long n, double *t) {
    if (rank != 0) return;
    qsort(t, reps, sizeof(double), cmp_double);
    int bw = strstr(bench, "_bw") != NULL;
    double med = t[reps / 2], lo = t[0], hi = t[reps - 1];
    if (bw) {   /* GB/s: the fastest repetition is the max */
        printf("%s,%s,host,%s,byte,2,%ld,%ld,%d,GB/s,%.4f,%.4f,%.4f\n", two_sided ? "mpi-2sided" : "mpi", bench, op, size, n, reps,
               size / med / 1e3, size / hi / 1e3, size / lo / 1e3);
    } else {
        printf("%s,%s,host,%s,byte,2,%ld,%ld,%d,us,%.4f,%.4f,%.4f\n", two_sided ? "mpi-2sided" : "mpi", bench, op, size, n,
               reps, med, lo, hi);
    }
    fflush(stdout);
}

static int probe(void) {
    volatile int64_t *w = (volatile int64_t *) heap;
    const char *names[] = {"put", "accumulate(sum)", "fetch_and_op(sum)", "compare_and_swap", "get"};
    int64_t one = 1, old = 0, cmp, fail = 0;
    for (int k = 0; k < 5; k++) {
        w[k] = k == 4 ? 5 : 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            double t0 = now_us();
            int64_t v = k + 1;
            cmp = 0;
            switch (k) {
                case 0: MPI_Put(&v, 1, MPI_INT64_T, 1, k * 8, 1, MPI_INT64_T, win); break;
                case 1: MPI_Accumulate(&v, 1, MPI_INT64_T, 1, k * 8, 1, MPI_INT64_T, MPI_SUM, win); break;
                case 2: MPI_Fetch_and_op(&v, &old, MPI_INT64_T, 1, k * 8, MPI_SUM, win); break;
                case 3: MPI_Compare_and_swap(&v, &cmp, &old, MPI_INT64_T, 1, k * 8, win); break;
                case 4: MPI_Get(&old, 1, MPI_INT64_T, 1, k * 8, 1, MPI_INT64_T, win); break;
            }
            MPI_Win_flush(1, win);
            if (k == 4) { int64_t done = 6; MPI_Put(&done, 1, MPI_INT64_T, 1, k * 8, 1, MPI_INT64_T, win); MPI_Win_flush(1, win); }
            printf("probe: %-20s flushed after %8.1f us\n", names[k], now_us() - t0);
        } else {
            double t0 = now_us();
            while (w[k] != (k == 4 ? 6 : k + 1)) {   /* no MPI call unless --probe-iprobe: pure local spinning */
                if (probe_iprobe) { int flag; MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); }
                if (now_us() - t0 > 10e6) { fail = 1; break; }
            }
            printf("probe: %-20s %s after %8.1f us of spinning outside MPI\n", names[k],
                   fail ? "NOT SEEN" : "seen", now_us() - t0);
        }
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    (void) one;
    return (int) fail;
}

int main(int argc, char **argv) {
    long min = 8, max = 16L << 20;
    int do_probe = 0, provided, level = MPI_THREAD_SERIALIZED, shared_source = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--min") && i + 1 < argc) min = parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--max") && i + 1 < argc) max = parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--probe")) do_probe = 1;
        else if (!strcmp(argv[i], "--factor") && i + 1 < argc) factor = atol(argv[++i]);
        else if (!strcmp(argv[i], "--multiple")) level = MPI_THREAD_MULTIPLE;
        else if (!strcmp(argv[i], "--shared-source")) shared_source = 1;
        else if (!strcmp(argv[i], "--two-sided")) two_sided = 1;
        else if (!strcmp(argv[i], "--probe-iprobe")) { do_probe = 1; probe_iprobe = 1; }
        else if (!strcmp(argv[i], "--progress-thread") && i + 1 < argc) { progress_us = atoi(argv[++i]); level = MPI_THREAD_MULTIPLE; }
        else { fprintf(stderr, "usage: %s [--min N] [--max N] [--factor F] [--reps N] [--probe | --probe-iprobe] [--multiple] [--progress-thread US] [--shared-source] [--two-sided]\n", argv[0]); return 2; }
    }
    MPI_Init_thread(&argc, &argv, level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t bytes = (size_t) max + (2 << 20);
    heap = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    src = shared_source ? mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0) : malloc(max);
    memset(heap, 1, bytes);
    memset(src, 2, max);
    request = malloc(max + 64);
    MPI_Win_create(heap, (MPI_Aint) bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    int rc = 0;
    pthread_t progress;
    if (progress_us > 0) pthread_create(&progress, NULL, progress_main, NULL);
    if (do_probe) {
        rc = probe();
    } else {
        if (rank == 0) printf("library,benchmark,form,op,type,pes,size_bytes,iterations,repetitions,unit,median,min,max\n");
        double *t = calloc(reps, sizeof(double));
        const char *benches[] = {"put_bw", "get_bw", "put_nbi_bw", "get_nbi_bw", "put_latency", "get_latency"};
        const char *ops[] = {"put", "get", "put_nbi", "get_nbi", "put", "get"};
        for (int b = 0; b < 6; b++) {
            if (two_sided && strstr(benches[b], "_nbi")) continue;   /* PE 1 serves blocking requests only */
            int lat = strstr(benches[b], "latency") != NULL;
            long lmax = lat ? (max < (64L << 10) ? max : (64L << 10)) : max;
            for (long s = min; s <= lmax; s *= factor) {
                long n = lat ? 20000
                             : s < (64L << 10) ? 20000 : s < (4L << 20) ? 500 : 20;
                run_case(benches[b], s, n, t);
                emit(benches[b], ops[b], s, n, t);
            }
        }
        free(t);
    }
    if (progress_us > 0) { stop_progress = 1; pthread_join(progress, NULL); }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return rc;
}
