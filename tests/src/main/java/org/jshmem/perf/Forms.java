package org.jshmem.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The forms {@code --form} may name: the built-in host form, then any found by {@link ServiceLoader}. */
public final class Forms {
    private Forms() {
    }

    /** Forms that ship with the suite. */
    public static List<Form> builtIn() {
        return List.of(new HostForm());
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
