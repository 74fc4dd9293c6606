// `server-benchmark [scans] [queued]` runs its own server (ServerBenchmark.swift);
// `server-benchmark remote …` loads servers that are already running (RemoteLoad.swift).
if CommandLine.arguments.dropFirst().first == "remote" {
    await RemoteLoad.main()
} else {
    await ServerBenchmark.main()
}
