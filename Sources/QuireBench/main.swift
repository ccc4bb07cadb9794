// quire-bench: the benchmark suite (see docs/benchmarks.md).
print("quire-bench: no benchmarks yet")
