import ServiceLifecycle

/// Stops a server run by `task` in a service group: gracefully first (`shutDown`), so that it
/// stops accepting and closes its idle connections before its task ends; then, for connections
/// still busy after `bound` (a stalled reader, a body that trickles), by cancelling the task.
/// Cancelling at once could drop a connection accepted but not yet served, on which NIO traps
/// ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#2813): it crashed a
/// whole run once.
func stopGracefully(_ task: Task<Void, any Error>, shutDown: @Sendable () async -> Void, bound: Duration = .seconds(2)) async {
    await shutDown()
    let stopped = await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            _ = try? await task.value
            return true
        }
        group.addTask {
            try? await Task.sleep(for: bound)
            return false
        }
        let first = await group.next() ?? true
        if !first { task.cancel() }
        group.cancelAll()
        return first
    }
    if !stopped { _ = try? await task.value }
}
