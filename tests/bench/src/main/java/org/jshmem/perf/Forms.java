package org.jshmem.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The forms {@code --form} may name: the built-in ones, then any found by {@link ServiceLoader}. */
public final class Forms {
    /** The host form, whose operations, types, sizes and iterations are the benchmarks' own. */
    static final Form HOST = new HostForm();

    private Forms() {
    }

    /** Forms that ship with the suite: host, on_stream, graph, device. */
    public static List<Form> builtIn() {
        return List.of(new HostForm(), new OnStreamForm(), new OnStreamForm(true), new DeviceForm());
    }

    /** Every form: built in, then those other jars provide. */
    public static List<Form> all() {
        List<Form> forms = new ArrayList<>(builtIn());
        for (Form f : ServiceLoader.load(Form.class)) {
            if (forms.stream().noneMatch(g -> g.name().equals(f.name()))) {
                forms.add(f);
            }
        }
        return forms;
    }

    /** The form called {@code name}. */
    public static Optional<Form> find(String name) {
        return all().stream().filter(f -> f.name().equals(name)).findFirst();
    }
}
