package org.jshmem.it;

import java.util.Arrays;

/**
 * The data the PE programs send, a function of (sending PE, salt, index), so that a test can
 * compute what every PE must have received. Arrays are reported with {@link Arrays#toString}.
 */
public final class Values {
    /** The element types of the typed put/get API. */
    public static final String[] TYPES = {"byte", "short", "int", "long", "float", "double"};

    private Values() {
    }

    /** {@code n} elements of {@code type} from PE {@code pe} with {@code salt}, as a Java array. */
    public static Object array(String type, int pe, int salt, int n) {
        switch (type) {
            case "byte": {
                byte[] a = new byte[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (byte) (pe * 16 + salt * 4 + i - 40);
                }
                return a;
            }
            case "short": {
                short[] a = new short[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (short) (pe * 3000 + salt * 100 + i - 9000);
                }
                return a;
            }
            case "int": {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = pe * 1_000_000 + salt * 1000 + i - 500;
                }
                return a;
            }
            case "long": {
                long[] a = new long[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (pe + 1) * (1L << 40) + salt * 1000 + i;
                }
                return a;
            }
            case "float": {
                float[] a = new float[n];
                for (int i = 0; i < n; i++) {
                    a[i] = pe * 10 + salt + i * 0.25f;
                }
                return a;
            }
            case "double": {
                double[] a = new double[n];
                for (int i = 0; i < n; i++) {
                    a[i] = pe * 1e10 + salt + i / 8.0;
                }
                return a;
            }
            default:
                throw new IllegalArgumentException(type);
        }
    }

    /** Element width in bytes. */
    public static int width(String type) {
        return switch (type) {
            case "byte" -> 1;
            case "short" -> 2;
            case "int", "float" -> 4;
            default -> 8;
        };
    }

    /** {@link Arrays#toString} of any primitive array. */
    public static String str(Object array) {
        return switch (array) {
            case byte[] a -> Arrays.toString(a);
            case short[] a -> Arrays.toString(a);
            case int[] a -> Arrays.toString(a);
            case long[] a -> Arrays.toString(a);
            case float[] a -> Arrays.toString(a);
            case double[] a -> Arrays.toString(a);
            default -> throw new IllegalArgumentException(array.getClass().toString());
        };
    }

    /** A scalar of {@code type} from PE {@code pe} with {@code salt}, boxed. */
    public static Object scalar(String type, int pe, int salt) {
        return switch (type) {
            case "byte" -> (byte) (-1 - pe * 3 - salt);
            case "short" -> (short) (-20000 + pe * 7 + salt);
            case "int" -> -100_000 * pe - 7 - salt;
            case "long" -> Long.MIN_VALUE + pe * 1000L + salt;
            case "float" -> -1.5f * pe - 0.125f - salt;
            case "double" -> 1e300 * (pe + 1) + salt;
            default -> throw new IllegalArgumentException(type);
        };
    }

    /** Byte offset of the scalar of {@code type} in a scalar area (naturally aligned). */
    public static int scalarOffset(String type) {
        return switch (type) {
            case "byte" -> 0;
            case "short" -> 2;
            case "int" -> 4;
            case "long" -> 8;
            case "float" -> 16;
            default -> 24;
        };
    }

    /** Element {@code from[srcIndex + i*srcStride]} to {@code into[dstIndex + i*dstStride]}, for {@code i < n}. */
    public static Object strided(Object from, int srcIndex, int srcStride, Object into, int dstIndex, int dstStride, int n) {
        for (int i = 0; i < n; i++) {
            System.arraycopy(from, srcIndex + i * srcStride, into, dstIndex + i * dstStride, 1);
        }
        return into;
    }

    /** A zeroed array of {@code type}. */
    public static Object zeros(String type, int n) {
        return java.lang.reflect.Array.newInstance(switch (type) {
            case "byte" -> byte.class;
            case "short" -> short.class;
            case "int" -> int.class;
            case "long" -> long.class;
            case "float" -> float.class;
            default -> double.class;
        }, n);
    }
}
