import Foundation

/// Scans that reach the server after their audit has ended.
///
/// An audit's end is a moment in time: a scan made before it belongs to the audit whenever it
/// arrives (a station that was offline at the end syncs later). Such a scan is accepted into the
/// ended audit, counts as every scan does, and is marked late with the time it arrived. A scan
/// made after the end is refused.
///
/// A station's clock can be wrong, so a station that sends its clock with a batch
/// (`BatchScanRequest.stationClock`) has its scans' times corrected by the difference between
/// that clock and the server's when the batch arrives (`correctedTime`). What the correction
/// cannot see is a clock that was changed between the scan and the send (a station that was
/// offline with a wrong clock and set it right when it came back) and the time the batch spent
/// on the wire. `bound` covers those: a scan whose corrected time is no more than `bound` after
/// the end is still taken as made before it, and one further after is refused.
public enum LateScans {
    /// Ten minutes: longer than a batch spends in transit or a station's clock drifts in a day
    /// (seconds), long enough for a clock stepped by a few minutes when the station reconnects,
    /// and short enough that an auditor who ends an audit and walks away is not followed by
    /// scans made a quarter of an hour later.
    public static let bound: TimeInterval = 600

    /// Whether a scan made at `scannedAt` may go into an audit that ended at `endedAt`. A time a
    /// station gave (`timeGiven`) is judged with the bound; a scan that gave none was made when
    /// it arrived, after the end.
    public static func accepts(scannedAt: Date, timeGiven: Bool, endedAt: Date, bound: TimeInterval = LateScans.bound) -> Bool {
        timeGiven && scannedAt <= endedAt.addingTimeInterval(bound)
    }

    /// `scannedAt`, read on a station's clock that showed `stationClock` when the server's
    /// showed `serverNow`, on the server's clock.
    public static func correctedTime(_ scannedAt: Date, stationClock: Date, serverNow: Date) -> Date {
        scannedAt.addingTimeInterval(serverNow.timeIntervalSince(stationClock))
    }
}
