import HummingbirdCore
import HummingbirdTLS

extension HTTPServerBuilder {
    /// `base` as it is for plain HTTP, or wrapped in TLS with `tls`'s certificate and key: the
    /// same port then speaks HTTPS only. The files are read and checked here, before listening.
    public static func serving(_ base: HTTPServerBuilder, over tls: TLSFiles?) throws -> HTTPServerBuilder {
        guard let tls else { return base }
        return try .tls(base, tlsConfiguration: try tls.configuration())
    }
}
