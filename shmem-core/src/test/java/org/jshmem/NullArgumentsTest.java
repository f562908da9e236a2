package org.jshmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Walks the public API of a PE (Shmem with its interfaces, Team, ShmemContext, SymmetricSegment, ShmemStream,
 * ShmemEvent) by reflection and passes null in each reference position, every other argument
 * valid: each call must throw a {@link NullPointerException} whose message names the call and the
 * parameter, before touching memory (the segments' bytes are compared before and after).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NullArgumentsTest {
    /**
     * Parameters documented as nullable: {@code ignore} of the multi-variable waits and tests,
     * {@code entered} of the signalled gathers.
     */
    private static final Set<String> NULLABLE = Set.of("ignore", "entered");
    private static final Set<String> SKIPPED_METHODS = Set.of("equals", "init");

    @TempDir
    Path shmDir;

    private Shmem shmem;

    @AfterEach
    void close() throws IOException {
        if (shmem != null) {
            shmem.close();
        }
        try (Stream<Path> left = Files.list(shmDir)) {
            assertEquals(List.of(), left.toList(), "files left in JSHMEM_SHM_DIR");
        }
    }

    private Shmem start() {
        shmem = Shmem.init(ShmemConfig.fromMap(Map.of("JSHMEM_SYMMETRIC_SIZE", "1M", "JSHMEM_BACKEND", "host",
                "JSHMEM_BOOTSTRAP", "single", "JSHMEM_SHM_DIR", shmDir.toString(), "JSHMEM_SPIN", "64")));
        return shmem;
    }

    @Test
    void parameterNamesAreCompiledIn() throws NoSuchMethodException {
        Method m = Shmem.class.getMethod("malloc", long.class);
        assertEquals("bytes", m.getParameters()[0].getName(), "compile with -parameters (root pom)");
    }

    @Test
    void putSignalWithANullOpThrowsAndLeavesTheDestinationUntouched() {
        Shmem s = start();
        SymmetricSegment data = s.malloc(64);
        SymmetricSegment flag = s.calloc(1, Long.BYTES);
        data.local().fill((byte) 0x5A);
        NullPointerException e = assertThrows(NullPointerException.class, () -> s.putSignal(data, 0,
                MemorySegment.ofArray(new long[] {42}), flag, 0, 1, null, 0));
        assertEquals("putSignal: op is null", e.getMessage());
        assertEquals(0x5A5A5A5A5A5A5A5AL, s.gLong(data, 0, 0), "the destination was written");
        assertEquals(0, s.signalFetch(flag, 0), "the signal was updated");
    }

    @Test
    void arrayOverloadsNameTheArgumentAndTheCall() {
        Shmem s = start();
        SymmetricSegment data = s.malloc(64);
        NullPointerException put = assertThrows(NullPointerException.class, () -> s.put(data, 0, (long[]) null, 0, 1, 0));
        assertEquals("put: src is null", put.getMessage());
        NullPointerException get = assertThrows(NullPointerException.class, () -> s.get((double[]) null, 0, 1, data, 0, 0));
        assertEquals("get: dst is null", get.getMessage());
    }

    @Test
    void everyReferenceParameterOfThePublicApiIsCheckedForNull() throws Exception {
        Shmem s = start();
        SymmetricSegment seg = s.malloc(4096);
        byte[] before = seg.local().toArray(ValueLayout.JAVA_BYTE);
        ShmemStream stream = new ShmemStream(s, null, MemorySegment.NULL);   // never reaches the GPU: nulls come first
        ShmemEvent event = new ShmemEvent(s, null, MemorySegment.NULL);
        Object[] receivers = {s, s.teamWorld(), s.createContext(), seg, stream, event};
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Object receiver : receivers) {
            Method[] methods = receiver.getClass().getMethods();
            Arrays.sort(methods, Comparator.comparing(Method::toGenericString));
            for (Method m : methods) {
                if (m.getDeclaringClass() == Object.class || SKIPPED_METHODS.contains(m.getName())
                        || m.isSynthetic() || m.isBridge()) {
                    continue;
                }
                Parameter[] params = m.getParameters();
                for (int i = 0; i < params.length; i++) {
                    if (params[i].getType().isPrimitive() || NULLABLE.contains(params[i].getName())) {
                        continue;
                    }
                    Object[] args = new Object[params.length];
                    for (int j = 0; j < params.length; j++) {
                        args[j] = j == i ? null : valueFor(params[j].getType(), s, seg, stream, event);
                    }
                    checked++;
                    String what = receiver.getClass().getSimpleName() + "." + m.getName()
                            + Arrays.toString(m.getParameterTypes()) + " with " + params[i].getName() + " null";
                    Object target = Modifier.isStatic(m.getModifiers()) ? null : receiver;
                    try {
                        m.invoke(target, args);
                        failures.add(what + ": returned normally");
                    } catch (InvocationTargetException ite) {
                        Throwable t = ite.getCause();
                        String msg = String.valueOf(t.getMessage());
                        if (params[i].getType() == ShmemStream.class && t instanceof ShmemStateException
                                && msg.contains(m.getName()) && msg.contains("needs the symmetric heap in GPU memory")) {
                            continue;   // on a host heap no stream can exist: the GPU-heap error comes first
                        }
                        if (!(t instanceof NullPointerException)) {
                            failures.add(what + ": threw " + t);
                        } else if (!msg.contains(params[i].getName() + " is null") || !msg.contains(m.getName())) {
                            failures.add(what + ": message does not name the call and the argument: " + msg);
                        }
                    }
                }
            }
        }
        assertTrue(checked > 200, "only " + checked + " positions found");
        assertEquals(List.of(), failures, failures.size() + " of " + checked + " positions");
        assertArrayEquals(before, seg.local().toArray(ValueLayout.JAVA_BYTE), "a call wrote the heap before its null check");
    }

    private static Object valueFor(Class<?> type, Shmem s, SymmetricSegment seg, ShmemStream stream, ShmemEvent event) {
        if (type.isPrimitive()) {   // any value: the null checks come before the others
            return type == boolean.class ? false : type == float.class ? 0f : type == double.class ? 0d
                    : type == long.class ? 0L : type == byte.class ? (byte) 0 : type == short.class ? (short) 0
                    : type == char.class ? (char) 0 : (Object) 0;
        }
        if (type == SymmetricSegment.class) {
            return seg;
        }
        if (type == MemorySegment.class) {
            return MemorySegment.ofArray(new byte[64]);
        }
        if (type == ValueLayout.class) {
            return ValueLayout.JAVA_BYTE;
        }
        if (type == Team.class) {
            return s.teamWorld();
        }
        if (type == ShmemStream.class) {
            return stream;
        }
        if (type == ShmemEvent.class) {
            return event;
        }
        if (type == RegisteredBuffer.class) {   // cannot be registered on a host heap: the null checks come first
            return new RegisteredBuffer(s, MemorySegment.ofArray(new byte[64]));
        }
        if (type == TeamConfig.class) {
            return TeamConfig.DEFAULT;
        }
        if (type == Class.class) {
            return Object.class;
        }
        if (type == String.class) {
            return "x";
        }
        if (type.isEnum()) {
            return type.getEnumConstants()[0];
        }
        if (type.isArray()) {
            return java.lang.reflect.Array.newInstance(type.getComponentType(), 64);
        }
        throw new IllegalStateException("no test value for " + type + ": add one to NullArgumentsTest.valueFor");
    }
}
