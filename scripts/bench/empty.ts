// An empty program: the baseline of startup benchmarks.
