#!/usr/bin/env python3
"""Checks the layering of shmem-core and shmem-device (docs/architecture.md). From the top:
API (org.jshmem, org.jshmem.device) -> runtime (runtime, trace) -> backends (host, gpu, gpu.shim, collectives)
-> SPI (spi) -> node (node, bootstrap, heap, remote). Every import of an org.jshmem type goes to the same
layer or a lower one; the API and the runtime do not reach past the SPI into a backend (they see backends
only through the SPI); and the API does not import node, bootstrap, heap or remote: start-up goes through
org.jshmem.runtime. The API's vocabulary (value types, exceptions, settings) may be used by every layer.
Prints each import that breaks a rule and exits 1 if there is one; --all lists every cross-package
import."""
import re, sys, pathlib

root = pathlib.Path(__file__).resolve().parent.parent
# higher number = higher layer
LAYER = {
    'org.jshmem': 5, 'org.jshmem.device': 5,                       # API
    'org.jshmem.runtime': 4,                                         # start-up: assembles a PE from the layers below
    'org.jshmem.trace': 4,                                           # the timeline: a traced layer over the SPI
    'org.jshmem.host': 3, 'org.jshmem.gpu': 3, 'org.jshmem.gpu.shim': 3,
    'org.jshmem.collectives': 3,                                     # backends, shared collective algorithms
    'org.jshmem.spi': 2,                                             # backend contract
    'org.jshmem.node': 1, 'org.jshmem.bootstrap': 1, 'org.jshmem.heap': 1,   # control plane, bootstrap, allocator
    'org.jshmem.remote': 1,                                          # the remote transport (MPI one-sided) under both
}
BACKENDS = {'org.jshmem.host', 'org.jshmem.gpu', 'org.jshmem.gpu.shim', 'org.jshmem.collectives'}
API = {'org.jshmem', 'org.jshmem.device'}
RUNTIME = {'org.jshmem.runtime'}
NODE = {'org.jshmem.node', 'org.jshmem.bootstrap', 'org.jshmem.heap', 'org.jshmem.remote'}
# API types that are vocabulary (values, exceptions, settings), not the facade: any layer may use them.
VOCABULARY = re.compile(r'^org\.jshmem\.(AtomicOp|Cmp|DType|ReduceOp|SignalOp|\w*Exception|ShmemConfig(\.\w+)?'
                        r'|CollectiveTuning(\.\w+)?|GpuCollectiveTuning)$')
# Sideways imports between backends are not allowed either; these are the allowed ones.
SIDEWAYS_OK = {('org.jshmem.host', 'org.jshmem.collectives'), ('org.jshmem.gpu', 'org.jshmem.collectives'),
               ('org.jshmem.gpu', 'org.jshmem.gpu.shim')}
# Documented exceptions: the device library is the GPU backend's own API (kernels over its heap).
ALLOWED = {('org.jshmem.device', 'org.jshmem.gpu'), ('org.jshmem.device', 'org.jshmem.gpu.shim')}
# API imports of node, bootstrap, heap or remote types that are allowed, as (package, type): reason.
# None: Shmem, Team and the facets reach them through org.jshmem.runtime.ShmemRuntime.
NODE_OK = {}

bad, rows = [], []
for module in ('shmem-core', 'shmem-device'):
    for f in sorted((root / module / 'src/main/java').rglob('*.java')):
        if f.name == 'module-info.java':
            continue
        text = f.read_text()
        pkg = re.search(r'^package ([\w.]+);', text, re.M).group(1)
        for imp in re.findall(r'^import (?:static )?(org\.jshmem\.[\w.]+?)(?:\.[a-z_]\w*|\.\*)?;', text, re.M):
            parts = imp.split('.')
            i = next(k for k, p in enumerate(parts) if p[:1].isupper())
            target_pkg, type_name = '.'.join(parts[:i]), '.'.join(parts[:i + 1])
            if target_pkg == pkg or target_pkg not in LAYER:
                continue
            up = LAYER[target_pkg] > LAYER[pkg]
            side = LAYER[target_pkg] == LAYER[pkg] and LAYER[pkg] == 3 and (pkg, target_pkg) not in SIDEWAYS_OK
            vocab = bool(VOCABULARY.match(type_name))
            past_spi = (pkg in API or pkg in RUNTIME) and target_pkg in BACKENDS
            past_runtime = pkg in API and target_pkg in NODE and (pkg, type_name) not in NODE_OK
            ok = vocab or (pkg, target_pkg) in ALLOWED or not (up or side or past_spi or past_runtime)
            where = f.relative_to(root)
            kind = ('up' if up else 'sideways' if LAYER[target_pkg] == LAYER[pkg] else 'past-spi' if past_spi
                    else 'past-runtime' if past_runtime else 'down')
            rows.append(f'{kind:12} {"ok " if ok else "BAD"} {pkg} -> {type_name}  ({where})')
            if not ok:
                bad.append(rows[-1])
print('\n'.join(rows if '--all' in sys.argv else bad))
print(f'{len(bad)} import(s) against the layering' if bad else 'layering: no import runs from a lower layer to a higher one')
sys.exit(1 if bad else 0)
