// `server-benchmark [scans] [queued]` runs its own server (ServerBenchmark.swift);
// `server-benchmark remote …` loads servers that are already running (RemoteLoad.swift);
// `server-benchmark late [assets] [scans]` sets late scans beside on-time ones (LateBenchmark.swift);
// `server-benchmark decode [seconds] [--frames-out DIR]` sends camera frames to POST /api/v1/decode (DecodeBenchmark.swift).
switch CommandLine.arguments.dropFirst().first {
case "remote": await RemoteLoad.main()
case "decode": await DecodeBenchmark.main()
case "late": await LateBenchmark.main()
default: await ServerBenchmark.main()
}
