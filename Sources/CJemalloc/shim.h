// jemalloc (Debian's libjemalloc-dev) takes the place of glibc's malloc in Quire's programs on
// Linux (server, CLI, bench): linked into the executable, its malloc and free come before libc's.
// See docs/benchmarks.md, "Part 6, eighth pass".
#include <jemalloc/jemalloc.h>
