// Filled in below by ServerBenchmark.swift.
await ServerBenchmark.main()
