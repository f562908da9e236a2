package org.jshmem.it.coll;

import org.jshmem.DType;
import org.jshmem.ReduceOp;

/**
 * The expected results of the collectives, computed sequentially in the JUnit JVM from
 * {@link CollData}'s inputs: plain loops, element by element, members in team order.
 */
final class Reference {
    private Reference() {
    }

    /** dest of a reduction over the world PEs {@code members} (team order). */
    static byte[] reduce(DType type, ReduceOp op, int[] members, long n, int seed) {
        Out out = new Out(n * type.byteSize());
        for (long k = 0; k < n; k++) {
            long r = switch (type) {
                case BYTE, SHORT, INT, LONG -> {
                    long acc = signed(type, CollData.element(type, members[0], k, seed));
                    for (int i = 1; i < members.length; i++) {
                        long v = signed(type, CollData.element(type, members[i], k, seed));
                        acc = signed(type, integer(op, acc, v));
                    }
                    yield acc;
                }
                case FLOAT -> {
                    float acc = Float.intBitsToFloat((int) CollData.element(type, members[0], k, seed));
                    for (int i = 1; i < members.length; i++) {
                        acc = real(op, acc, Float.intBitsToFloat((int) CollData.element(type, members[i], k, seed)));
                    }
                    yield Float.floatToRawIntBits(acc);
                }
                case DOUBLE -> {
                    double acc = Double.longBitsToDouble(CollData.element(type, members[0], k, seed));
                    for (int i = 1; i < members.length; i++) {
                        double v = Double.longBitsToDouble(CollData.element(type, members[i], k, seed));
                        acc = switch (op) {
                            case SUM -> acc + v;
                            case PROD -> acc * v;
                            case MIN -> Math.min(acc, v);
                            case MAX -> Math.max(acc, v);
                            default -> throw new IllegalArgumentException(op.toString());
                        };
                    }
                    yield Double.doubleToRawLongBits(acc);
                }
                case FP16, BF16 -> {
                    float acc = half(type, CollData.element(type, members[0], k, seed));
                    for (int i = 1; i < members.length; i++) {
                        acc = real(op, acc, half(type, CollData.element(type, members[i], k, seed)));
                    }
                    yield type == DType.FP16 ? Float.floatToFloat16(acc) : CollData.Bf16.round(acc);
                }
            };
            out.element(r, type.byteSize());
        }
        return out.bytes();
    }

    private static float half(DType type, long bits) {
        return type == DType.FP16 ? Float.float16ToFloat((short) bits) : CollData.Bf16.toFloat((short) bits);
    }

    private static long signed(DType type, long v) {
        return switch (type.byteSize()) {
            case 1 -> (byte) v;
            case 2 -> (short) v;
            case 4 -> (int) v;
            default -> v;
        };
    }

    private static long integer(ReduceOp op, long a, long b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case AND -> a & b;
            case OR -> a | b;
            case XOR -> a ^ b;
        };
    }

    private static float real(ReduceOp op, float a, float b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            default -> throw new IllegalArgumentException(op.toString());
        };
    }

    /** dest of an fcollect: each member's n elements in team order. */
    static byte[] fcollect(DType type, int[] members, long n, int seed) {
        Out out = new Out(members.length * n * type.byteSize());
        for (int m : members) {
            for (long k = 0; k < n; k++) {
                out.element(CollData.element(type, m, k, seed), type.byteSize());
            }
        }
        return out.bytes();
    }

    /** dest of a collect: member i's {@link CollectivesProgram#collectCount} elements, in team order. */
    static byte[] collect(DType type, int[] members, long n, int seed) {
        Out out = new Out(0);
        for (int i = 0; i < members.length; i++) {
            for (long k = 0; k < CollectivesProgram.collectCount(i, n); k++) {
                out.element(CollData.element(type, members[i], k, seed), type.byteSize());
            }
        }
        return out.bytes();
    }

    static long collectTotal(int members, long n) {
        long t = 0;
        for (int i = 0; i < members; i++) {
            t += CollectivesProgram.collectCount(i, n);
        }
        return t;
    }

    /** dest of a broadcast: the root's n elements. */
    static byte[] broadcast(DType type, int rootWorldPe, long n, int seed) {
        Out out = new Out(n * type.byteSize());
        for (long k = 0; k < n; k++) {
            out.element(CollData.element(type, rootWorldPe, k, seed), type.byteSize());
        }
        return out.bytes();
    }

    /** dest of an alltoall on team PE {@code me}: block i is elements me*n .. me*n+n-1 of member i's data. */
    static byte[] alltoall(DType type, int[] members, int me, long n, int seed) {
        Out out = new Out(members.length * n * type.byteSize());
        for (int m : members) {
            for (long k = 0; k < n; k++) {
                out.element(CollData.element(type, m, me * n + k, seed), type.byteSize());
            }
        }
        return out.bytes();
    }

    private static final class Out {
        private byte[] b;
        private int at;

        Out(long capacity) {
            b = new byte[(int) Math.max(32, capacity)];
        }

        void element(long bits, int size) {
            if (at + size > b.length) {
                b = java.util.Arrays.copyOf(b, b.length * 2);
            }
            for (int i = 0; i < size; i++) {
                b[at++] = (byte) (bits >>> (8 * i));
            }
        }

        byte[] bytes() {
            return java.util.Arrays.copyOf(b, at);
        }
    }
}
