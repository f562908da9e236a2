package org.jshmem;

/**
 * Null checks for the public API: every reference argument is checked before anything else, so a
 * null is a {@link NullPointerException} naming the call and the argument (e.g.
 * {@code putSignal: op is null}), with no memory touched. One line per method, no array allocated.
 */
final class Args {
    private Args() {
    }

    static void nonNull(String call, String name, Object value) {
        if (value == null) {
            throw new NullPointerException(call + ": " + name + " is null");
        }
    }

    static void nonNull(String call, String name1, Object value1, String name2, Object value2) {
        nonNull(call, name1, value1);
        nonNull(call, name2, value2);
    }

    static void nonNull(String call, String name1, Object value1, String name2, Object value2, String name3,
                        Object value3) {
        nonNull(call, name1, value1);
        nonNull(call, name2, value2);
        nonNull(call, name3, value3);
    }
}
