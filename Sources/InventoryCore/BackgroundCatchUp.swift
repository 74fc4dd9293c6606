/// Work a store finishes in the background after a commit, a short transaction at a time (the
/// `last_audited_at` times of an ended audit, on SQLite and on PostgreSQL alike). Each back end
/// says whether work is pending and how to do one batch; this is the loop around them.
public enum BackgroundCatchUp {
    /// Starts the catch-up in a detached task of utility priority: while `isPending`, runs
    /// `batch` (which answers whether more remains) until it is done. A failure (the database
    /// busy, out of reach, a deadlock) is tried again after 1, 2, 4, 8 and 16 s, then left for
    /// the next catch-up: what is pending stays recorded, and reads merge it meanwhile.
    public static func start(
        isPending: @escaping @Sendable () async throws -> Bool, batch: @escaping @Sendable () async throws -> Bool
    ) {
        Task.detached(priority: .utility) {
            for attempt in 0..<5 {
                do {
                    guard try await isPending() else { return }
                    while try await batch() { await Task.yield() }
                    return
                } catch {
                    try? await Task.sleep(for: .seconds(1 << attempt))
                }
            }
        }
    }
}
