print("anchor-bench: benchmarks arrive with issue 8")
