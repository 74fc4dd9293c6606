/// Runs `body`, then `cleanup` whether `body` returned or threw (the async `defer` Swift lacks):
/// the one shape of every `with…` helper that starts something for a test and must stop it.
public func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    do {
        let result = try await body()
        await cleanup()
        return result
    } catch {
        await cleanup()
        throw error
    }
}
