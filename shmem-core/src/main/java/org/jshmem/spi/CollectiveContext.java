package org.jshmem.spi;

import org.jshmem.ShmemConfig;
import org.jshmem.node.NodeBarrier;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.node.Waiter;

/**
 * What the core hands a backend to build its collectives with ({@link Backend#collectives}):
 * this PE, the node control plane (shared memory, the host barrier of every team slot, the waiter
 * that notices dead PEs) and the settings (collective thresholds).
 *
 * @param myPe    this PE's number in the job
 * @param node    the node's shared memory (control block, staging buffers; the heap on the host backend)
 * @param barrier the host barrier over team slots, on the control block
 * @param waiter  how a PE waits (spins, yields, checks liveness)
 * @param config  the settings of this PE
 */
public record CollectiveContext(int myPe, NodeSharedMemory node, NodeBarrier barrier, Waiter waiter,
                                ShmemConfig config) {
}
