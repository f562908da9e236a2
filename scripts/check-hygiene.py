#!/usr/bin/env python3
"""Checks that the repository reads as a product. Run from the repository root:

    python3 scripts/check-hygiene.py

Prints one line per finding, "path:line: what", and exits 1; prints a one-line summary and exits 0
when there is none. The files checked are git's (tracked, and untracked ones not ignored).

1. Product words. Text files (not binary, not *.png, not this script; docs/performance.md, which
   carries its runs' dates by design, and LICENSE exempt) carry no process words and no dates:
   a session name, "call N" / "(call N)" / "calls N-M", "issue N", a date YYYY-MM-DD, or a path
   into docs/benchmarks or docs/device-runs. What a reader needs is the reason and the benchmark's
   name; the run that measured it is on docs/performance.md, its history in git.

2. Documentation links. Every .md file under docs/ is reachable from docs/README.md by following
   relative links from page to page, and every relative link in the docs/ pages and in README.md
   names a file or folder that exists.

3. The configuration page. The names JSHMEM_*, JGEMM_* and FG_* that the code reads are exactly
   those in the first column of the tables on docs/configuration.md: a name read but not listed
   is reported where it is read, a name listed but no longer read where it is listed. A name is
   read where:
     - Java, under src/main/java: a string literal is exactly the name. Code that reads a
       variable passes its name as such a literal (System.getenv("X"), ShmemConfig's and
       GemmOptions' read(env, "X", ...), env.get("X")); messages quote names with other text
       around them, so they do not count.
     - C, C++, CUDA: getenv("X"); and, for compile-time macros, #ifdef X, #ifndef X and
       defined(X), less include guards (an #ifndef X whose next line is a bare #define X).
     - shell (*.sh, and files with a sh or bash shebang): an expansion $X or ${X...} outside
       comments.
     - Python: os.getenv("X"), os.environ.get("X"), os.environ["X"].
     - CMake: option(X, set(X ... CACHE <type> (not INTERNAL), find_program(X,
       if(NOT DEFINED X): the variables a user sets with -DX=...
   Sources under src/test/ set variables rather than read them, and are not looked at.
"""
import collections
import os
import re
import subprocess
import sys

SELF = "scripts/check-hygiene.py"
EXEMPT = {"docs/performance.md", "LICENSE"}
CONFIG_PAGE = "docs/configuration.md"
DOCS_INDEX = "docs/README.md"

PROCESS_WORDS = [
    (r"session[- ]?20\d\d", "a session name"),
    (r"\bsession-\d", "a session name"),
    (r"\bsession \d+\b", "a session number"),
    (r"[(,] ?call \d+\)", "a device-call number"),
    (r"\bcall \d+ (?:ran|on|of|in)\b", "a device-call number"),
    (r"\bcalls \d+(?:-| and )\d+\b", "device-call numbers"),
    (r"\bissue \d+\b", "an issue number"),
    (r"\b20\d\d-[01]\d-[0-3]\d\b", "a date"),
    (r"docs/benchmarks", "a path into the removed docs/benchmarks"),
    (r"docs/device-runs", "a path into the removed docs/device-runs"),
]
PROCESS_RE = re.compile("|".join("(%s)" % p for p, _ in PROCESS_WORDS), re.IGNORECASE)

NAME = r"(?:JSHMEM|JGEMM|FG)_[A-Z0-9_]*[A-Z0-9]"
C_EXT = (".c", ".cc", ".cpp", ".h", ".hpp", ".cu", ".cuh")
JAVA_LITERAL = re.compile(r'"(%s)"' % NAME)
C_GETENV = re.compile(r'\bgetenv\s*\(\s*"(%s)"' % NAME)
C_IFDEF = re.compile(r"^\s*#\s*if(?:n)?def\s+(%s)\b" % NAME)
C_DEFINED = re.compile(r"\bdefined\s*\(?\s*(%s)\b" % NAME)
C_GUARD = re.compile(r"^\s*#\s*ifndef\s+(%s)\s*$" % NAME)
C_BARE_DEFINE = re.compile(r"^\s*#\s*define\s+(%s)\s*$" % NAME)
SH_EXPANSION = re.compile(r"\$\{?(%s)\b" % NAME)
PY_ENV = re.compile(r"""(?:os\.getenv\s*\(|os\.environ\.get\s*\(|os\.environ\s*\[)\s*["'](%s)["']""" % NAME)
CMAKE_READS = [
    re.compile(r"\boption\s*\(\s*(%s)\b" % NAME),
    re.compile(r"\bset\s*\(\s*(%s)\s[^)]*?\bCACHE\s+(?!INTERNAL\b)\w+" % NAME),
    re.compile(r"\bfind_program\s*\(\s*(%s)\b" % NAME),
    re.compile(r"\bif\s*\(\s*NOT\s+DEFINED\s+(%s)\b" % NAME),
]
PAGE_NAME = re.compile(NAME)

MD_INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
MD_REF_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
MD_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def repo_files():
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         check=True, capture_output=True).stdout
    return sorted({p for p in out.decode("utf-8", "surrogateescape").split("\0") if p and os.path.isfile(p)})


def read_text(path):
    """The file's text, or None for a binary file."""
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data:
        return None
    return data.decode("utf-8", "replace")


# ---- 1. product words ----

def check_process_words(texts, findings):
    for path, text in texts.items():
        if path == SELF or path in EXEMPT or path.lower().endswith(".png"):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            found = []
            for m in PROCESS_RE.finditer(line):
                item = '"%s" (%s)' % (m.group(0), PROCESS_WORDS[m.lastindex - 1][1])
                if item not in found:
                    found.append(item)
            if found:
                findings.append("%s:%d: %s" % (path, n, ", ".join(found)))


# ---- 2. documentation links ----

def md_links(text):
    """(line number, target) of every link outside code blocks and code spans."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            continue
        line = MD_CODE_SPAN.sub("", line)
        for m in MD_INLINE_LINK.finditer(line):
            yield n, m.group(1)
        m = MD_REF_LINK.match(line)
        if m:
            yield n, m.group(1)


def resolve(page, target):
    """The repository path a relative link names, or None for URLs and anchors within the page."""
    if URL_SCHEME.match(target) or target.startswith("#"):
        return None
    target = re.split(r"[#?]", target, maxsplit=1)[0]
    if not target:
        return None
    target = re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), target)
    if target.startswith("/"):
        return os.path.normpath(target.lstrip("/"))
    return os.path.normpath(os.path.join(os.path.dirname(page), target))


def check_links(files, texts, findings):
    pages = [p for p in files if p.endswith(".md") and (p.startswith("docs/") or p == "README.md")]
    links = {}
    for page in pages:
        text = texts.get(page)
        if text is None:
            continue
        links[page] = []
        for n, target in md_links(text):
            path = resolve(page, target)
            if path is None:
                continue
            if path.startswith("..") or not os.path.exists(path):
                findings.append("%s:%d: link to %s: no such file" % (page, n, target))
            else:
                links[page].append(path)
    docs_pages = [p for p in pages if p.startswith("docs/")]
    if DOCS_INDEX not in links:
        findings.append("%s:1: missing: the documentation index, root of the docs pages' links" % DOCS_INDEX)
        return len(docs_pages)
    seen, queue = {DOCS_INDEX}, collections.deque([DOCS_INDEX])
    while queue:
        for target in links.get(queue.popleft(), []):
            if target.endswith(".md") and target.startswith("docs/") and target not in seen:
                seen.add(target)
                queue.append(target)
    for page in docs_pages:
        if page not in seen:
            findings.append("%s:1: not reachable from %s by relative links" % (page, DOCS_INDEX))
    return len(docs_pages)


# ---- 3. the configuration page ----

def is_shell(path, text):
    if path.endswith(".sh"):
        return True
    first = text.split("\n", 1)[0]
    return first.startswith("#!") and re.search(r"\b(?:ba)?sh\b", first) is not None


def names_read(texts):
    """{name: "path:line"} of the first place each name is read."""
    read = {}

    def note(name, path, n):
        read.setdefault(name, "%s:%d" % (path, n))

    guards = set()
    c_hits = []
    for path, text in texts.items():
        if "/src/test/" in "/" + path or path == SELF:
            continue
        lines = text.splitlines()
        if path.endswith(".java"):
            if "/src/main/java/" in "/" + path:
                for n, line in enumerate(lines, 1):
                    for m in JAVA_LITERAL.finditer(line):
                        note(m.group(1), path, n)
        elif path.endswith(C_EXT):
            for n, line in enumerate(lines, 1):
                for m in C_GETENV.finditer(line):
                    note(m.group(1), path, n)
                g = C_GUARD.match(line)
                if g and n < len(lines):
                    d = C_BARE_DEFINE.match(lines[n])
                    if d and d.group(1) == g.group(1):
                        guards.add(g.group(1))
                for m in C_IFDEF.finditer(line):
                    c_hits.append((m.group(1), path, n))
                if line.lstrip().startswith("#"):
                    for m in C_DEFINED.finditer(line):
                        c_hits.append((m.group(1), path, n))
        elif path.endswith(".py"):
            for n, line in enumerate(lines, 1):
                for m in PY_ENV.finditer(line):
                    note(m.group(1), path, n)
        elif os.path.basename(path) == "CMakeLists.txt" or path.endswith(".cmake"):
            for rx in CMAKE_READS:
                for m in rx.finditer(text):
                    note(m.group(1), path, text.count("\n", 0, m.start()) + 1)
        elif is_shell(path, text):
            for n, line in enumerate(lines, 1):
                if line.lstrip().startswith("#"):
                    continue
                for m in SH_EXPANSION.finditer(line):
                    note(m.group(1), path, n)
    for name, path, n in c_hits:
        if name not in guards:
            note(name, path, n)
    return read


def names_listed(text):
    """{name: line} of the names in the first column of the page's tables."""
    listed = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.lstrip().startswith("|"):
            continue
        cells = line.strip().strip("|").split("|")
        for name in PAGE_NAME.findall(cells[0]):
            listed.setdefault(name, n)
    return listed


def check_configuration(texts, findings):
    read = names_read(texts)
    page = texts.get(CONFIG_PAGE)
    if page is None:
        findings.append("%s:1: missing: the page that lists the %d settings the code reads" % (CONFIG_PAGE, len(read)))
        return len(read)
    listed = names_listed(page)
    for name in sorted(set(read) - set(listed), key=lambda x: read[x]):
        findings.append("%s: %s is read here but not listed on %s" % (read[name], name, CONFIG_PAGE))
    for name in sorted(set(listed) - set(read), key=lambda x: listed[x]):
        findings.append("%s:%d: %s is listed, but no code reads it" % (CONFIG_PAGE, listed[name], name))
    return len(read)


def main():
    if not os.path.isdir(".git") and not os.path.isfile(".git"):
        sys.exit("check-hygiene.py: run it from the repository root")
    files = repo_files()
    texts = {}
    for path in files:
        if path.lower().endswith(".png"):
            continue
        text = read_text(path)
        if text is not None:
            texts[path] = text
    findings = []
    check_process_words(texts, findings)
    pages = check_links(files, texts, findings)
    names = check_configuration(texts, findings)
    if findings:
        print("\n".join(findings))
        sys.exit(1)
    print("check-hygiene: clean (%d files, %d docs pages linked from %s, %d settings on %s)"
          % (len(texts), pages, DOCS_INDEX, names, CONFIG_PAGE))


if __name__ == "__main__":
    main()
