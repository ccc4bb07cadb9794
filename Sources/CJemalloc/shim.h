// jemalloc (Debian's libjemalloc-dev) takes the place of glibc's malloc in the server's programs:
// linked into the executable, its malloc and free come before libc's. See docs/benchmarks.md,
// "Part 6, eighth pass".
#include <jemalloc/jemalloc.h>
