import Foundation
import InventoryCore
import Logging
import ServiceLifecycle

/// Deletes scans' photos older than the retention, when the server starts and then every
/// hour, until the server shuts down.
public struct PhotoRetentionService: Service {
    let photos: any ScanPhotoService
    let retention: PhotoRetention
    let logger: Logger
    let every: Duration

    public init(photos: any ScanPhotoService, retention: PhotoRetention, logger: Logger, every: Duration = .seconds(3600)) {
        self.photos = photos
        self.retention = retention
        self.logger = logger
        self.every = every
    }

    public func run() async throws {
        guard retention.days > 0 else { return }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await prune()
                try? await Task.sleep(for: every)
            }
        }
    }

    /// One pass: photos taken before the cut-off go.
    public func prune(now: Date = Date()) async {
        guard let cutoff = retention.cutoff(now: now) else { return }
        do {
            let deleted = try await photos.prunePhotos(takenBefore: cutoff)
            if deleted > 0 { logger.info("Deleted \(deleted) scan photos older than \(retention.days) days") }
        } catch {
            // A server stopped during the pass (its port taken, SIGTERM) has nothing to warn of.
            guard !Task.isCancelled else { return }
            logger.warning("Could not delete old scan photos: \(error.localizedDescription)")
        }
    }
}
