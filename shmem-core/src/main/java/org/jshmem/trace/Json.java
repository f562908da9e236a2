package org.jshmem.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small JSON reader for trace files: objects as maps, arrays as lists, numbers as doubles. */
final class Json {
    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        Json j = new Json(text);
        Object v = j.value();
        j.space();
        if (j.at != text.length()) {
            throw j.error("text after the value");
        }
        return v;
    }

    private Object value() {
        space();
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        at++;
        space();
        if (peek('}')) {
            return m;
        }
        do {
            space();
            String key = string();
            space();
            expect(':');
            m.put(key, value());
            space();
        } while (peek(','));
        expect('}');
        return m;
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        at++;
        space();
        if (peek(']')) {
            return l;
        }
        do {
            l.add(value());
            space();
        } while (peek(','));
        expect(']');
        return l;
    }

    private String string() {
        expect('"');
        StringBuilder s = new StringBuilder();
        while (at < text.length() && text.charAt(at) != '"') {
            char c = text.charAt(at++);
            if (c == '\\') {
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> s.append('\n');
                    case 't' -> s.append('\t');
                    case 'r' -> s.append('\r');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case 'u' -> {
                        s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> s.append(e);
                }
            } else {
                s.append(c);
            }
        }
        expect('"');
        return s.toString();
    }

    private Double number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        if (start == at) {
            throw error("unexpected '" + text.charAt(at) + "'");
        }
        return Double.valueOf(text.substring(start, at));
    }

    private Object word(String w, Object v) {
        if (!text.startsWith(w, at)) {
            throw error("unexpected '" + text.charAt(at) + "'");
        }
        at += w.length();
        return v;
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String what) {
        int line = 1;
        for (int i = 0; i < Math.min(at, text.length()); i++) {
            line += text.charAt(i) == '\n' ? 1 : 0;
        }
        return new IllegalArgumentException("not a JSON trace: " + what + " at line " + line);
    }
}
