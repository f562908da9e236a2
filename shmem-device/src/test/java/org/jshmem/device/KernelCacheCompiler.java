package org.jshmem.device;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A second process for {@link KernelCacheTest}: compiles the entry {@code args[1]} of the cache in
 * {@code args[0]} with a compiler that prints {@code compiling}, takes {@code args[2]} ms and yields
 * {@code args[3]}; then prints whether it was a hit.
 */
public final class KernelCacheCompiler {
    private KernelCacheCompiler() {
    }

    public static void main(String[] args) {
        KernelCache cache = KernelCache.at(Path.of(args[0]));
        KernelCache.Entry e = cache.entry(cache.directory().resolve(args[1]), () -> {
            System.out.println("compiling");
            System.out.flush();
            try {
                Thread.sleep(Long.parseLong(args[2]));
            } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
            }
            return args[3].getBytes(StandardCharsets.UTF_8);
        });
        System.out.println((e.hit() ? "hit " : "compiled ") + new String(e.image(), StandardCharsets.UTF_8));
    }
}
