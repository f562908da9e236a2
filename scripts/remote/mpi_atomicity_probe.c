/*
 * Which MPI atomics are atomic with respect to the target process's own CPU atomics on the same
 * word? jshmem's PEs of one node update each other's heaps with CPU atomics while PEs of other nodes
 * use MPI's (the remote transport), so an MPI atomic that the target applies as get-op-put loses
 * the CPU's updates. Rank 0 CPU-adds 1 to a word of its window every few microseconds while rank 1
 * runs 20000 operations of one kind on it through MPI; the final word shows any lost update.
 *
 *   mpicc -O2 -pthread -o build/mpi_atomicity_probe scripts/remote/mpi_atomicity_probe.c
 *   for op in cas swap fop_sum acc_sum fop_bor acc_bor fop_band acc_band fop_bxor acc_bxor; do
 *     for w in 4 8; do mpirun -np 2 build/mpi_atomicity_probe $op $w; done; done
 *
 * Open MPI 4.1.4 (Debian 12, osc/rdma over btl/vader): every kind is atomic except the 4-byte
 * compare-and-swap, which lost 7000 to 10000 of the 60000 CPU adds per run (RemoteTransport works around it).
 * cas: rank 1 increments by compare-and-swap loops; swap: rank 1 swaps back what it last got, so
 * word + held == CPU adds; or/and/xor: rank 1 sets and clears bits above the CPU's count.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { OPS = 20000, MAX_ADDS = 60000 };
static volatile int stop;

/* Rank 0's progress thread: Open MPI applies atomics at a target only inside an MPI call. */
static void *progress(void *arg) {
    (void) arg;
    while (!stop) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        usleep(20);
    }
    return NULL;
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* One MPI operation of rank 1 on rank 0's word; returns how much it added to the word's count. */
static long long remote_op(const char *kind, int width, int i, long long *held, MPI_Win win) {
    MPI_Datatype dt = width == 4 ? MPI_INT : MPI_LONG_LONG;
    long long v8, out8, cmp8;
    int v4, out4, cmp4;
    if (!strcmp(kind, "cas")) {
        for (long long seen = 0;;) {
            v8 = seen + 1; cmp8 = seen; v4 = (int) v8; cmp4 = (int) cmp8;
            MPI_Compare_and_swap(width == 4 ? (void *) &v4 : &v8, width == 4 ? (void *) &cmp4 : &cmp8,
                                 width == 4 ? (void *) &out4 : &out8, dt, 0, 0, win);
            MPI_Win_flush(0, win);
            long long got = width == 4 ? out4 : out8;
            if (got == seen) return 1;
            seen = got;
        }
    }
    if (!strcmp(kind, "swap")) {
        v8 = *held; v4 = (int) v8;
        MPI_Fetch_and_op(width == 4 ? (void *) &v4 : &v8, width == 4 ? (void *) &out4 : &out8, dt, 0, 0, MPI_REPLACE, win);
        MPI_Win_flush(0, win);
        long long before = *held;
        *held = width == 4 ? out4 : out8;
        return before - *held;   /* the word gained what was held, lost what is now held */
    }
    long long bit = 1LL << (16 + i / 2 % 15);   /* above the CPU's count: set on even i, cleared on odd */
    const char *op = kind + 4;
    MPI_Op mop = MPI_SUM;
    long long add = 0;
    if (!strcmp(op, "sum")) { v8 = 1; add = 1; }
    else if (!strcmp(op, "bxor")) { mop = MPI_BXOR; v8 = bit; }
    else if (i % 2 == 0) { mop = MPI_BOR; v8 = bit; }
    else { mop = MPI_BAND; v8 = ~bit; }
    v4 = (int) v8;
    void *operand = width == 4 ? (void *) &v4 : &v8;
    if (kind[0] == 'f') MPI_Fetch_and_op(operand, width == 4 ? (void *) &out4 : &out8, dt, 0, 0, mop, win);
    else MPI_Accumulate(operand, 1, dt, 0, 0, 1, dt, mop, win);
    MPI_Win_flush(0, win);
    return add;
}

int main(int argc, char **argv) {
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 3 || (atoi(argv[2]) != 4 && atoi(argv[2]) != 8)) {
        if (rank == 0) fprintf(stderr, "usage: mpi_atomicity_probe cas|swap|fop_OP|acc_OP (OP: sum bor band bxor) 4|8\n");
        MPI_Finalize();
        return 2;
    }
    const char *kind = argv[1];
    int width = atoi(argv[2]);
    long long *mem;
    MPI_Alloc_mem(64, MPI_INFO_NULL, &mem);
    memset(mem, 0, 64);
    MPI_Win win;
    MPI_Win_create(mem, 64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    pthread_t thread;
    if (rank == 0) pthread_create(&thread, NULL, progress, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    long long counts[2] = {0, 0};   /* CPU adds, what rank 1's operations added */
    if (rank == 0) {
        while (!__atomic_load_n(&mem[1], __ATOMIC_ACQUIRE)) {
            if (counts[0] < MAX_ADDS) {
                if (width == 4) __atomic_fetch_add((int *) mem, 1, __ATOMIC_SEQ_CST);
                else __atomic_fetch_add(mem, 1, __ATOMIC_SEQ_CST);
                counts[0]++;
            }
            for (double t0 = now_us(); now_us() - t0 < 3;) {}
        }
    } else {
        long long held = 0, done = 1;
        for (int i = 0; i < OPS; i++) counts[1] += remote_op(kind, width, i, &held, win);
        MPI_Put(&done, 1, MPI_LONG_LONG, 0, 8, 1, MPI_LONG_LONG, win);
        MPI_Win_flush(0, win);
    }
    long long total[2];
    MPI_Reduce(counts, total, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        stop = 1;
        pthread_join(thread, NULL);
        long long word = width == 4 ? *(int *) mem : mem[0], expected = total[0] + total[1];
        printf("%-8s %d bytes: word %lld, expected %lld (%lld CPU adds): %s\n", kind, width, word, expected,
               total[0], word == expected ? "atomic" : "LOST UPDATES");
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Free_mem(mem);
    MPI_Finalize();
    return 0;
}
