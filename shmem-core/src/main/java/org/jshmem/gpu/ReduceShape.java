package org.jshmem.gpu;

/**
 * How the runtime runs an all-reduce on a GPU heap; the ordinal is the native runtime's
 * {@code JSHMEM_RT_REDUCE_*} code (see {@code shim.h}).
 */
public enum ReduceShape {
    /** Every PE reads every member's whole source and reduces it. */
    ONE_SHOT,
    /** Each PE reduces its 1/n slice and stores it into every member's destination. */
    TWO_SHOT,
    /** Every PE stores its source into every member's buffer with the flags inside the data (small sizes). */
    LOW_LATENCY
}
