/// Comparing secrets (API keys, token keys, PINs) in time that does not depend on where they
/// first differ, so an attacker cannot learn a secret a byte at a time from response times.
public enum ConstantTime {
    public static func equal(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        equal(Array(a.utf8), Array(b.utf8))
    }

    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
