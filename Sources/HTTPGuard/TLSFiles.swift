import Foundation
import NIOSSL
import X509

/// The certificate and key a server answers HTTPS with (`--tls-cert`, `--tls-key`): PEM files,
/// the certificate file holding the server's certificate first and any intermediates after it.
public struct TLSFiles: Sendable, Equatable {
    public var certificatePath: String
    public var keyPath: String

    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// Both flags or neither: nil for plain HTTP; one alone is a usage error.
    public static func from(certificate: String?, key: String?) throws(TLSFileError) -> TLSFiles? {
        switch (certificate, key) {
        case (nil, nil): return nil
        case (let certificate?, let key?): return TLSFiles(certificatePath: certificate, keyPath: key)
        case (_?, nil): throw .incomplete(missing: "--tls-key")
        case (nil, _?): throw .incomplete(missing: "--tls-cert")
        }
    }

    /// The server's TLS configuration, checked before the server listens: both files read, the
    /// certificate chain and the key parsed, and the key the one the certificate names.
    public func configuration() throws(TLSFileError) -> TLSConfiguration {
        let certificateText = try Self.read(certificatePath, what: "certificate")
        let keyText = try Self.read(keyPath, what: "key")
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateText.utf8)) } catch {
            throw .notCertificate(path: certificatePath)
        }
        // The server's own certificate is the first of the file; the authorities follow it.
        guard let first = chain.first, let der = try? first.toDERBytes(), let leaf = try? Certificate(derEncoded: der) else {
            throw .notCertificate(path: certificatePath)
        }
        guard let key = try? Certificate.PrivateKey(pemEncoded: keyText), let sslKey = try? NIOSSLPrivateKey(bytes: Array(keyText.utf8), format: .pem)
        else { throw .notKey(path: keyPath) }
        guard key.publicKey == leaf.publicKey else { throw .mismatch(certificate: certificatePath, key: keyPath) }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(sslKey))
    }

    private static func read(_ path: String, what: String) throws(TLSFileError) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw .missing(path: path, what: what)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path, what: what) }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Why the server cannot answer HTTPS with the files it was given.
public enum TLSFileError: Error, LocalizedError, Equatable {
    /// Only one of `--tls-cert` and `--tls-key` was given.
    case incomplete(missing: String)
    /// No file (or a folder) at the path.
    case missing(path: String, what: String)
    /// The file exists but cannot be read (permissions).
    case unreadable(path: String, what: String)
    /// The certificate file holds no PEM certificate.
    case notCertificate(path: String)
    /// The key file holds no PEM private key (or one that is encrypted with a passphrase).
    case notKey(path: String)
    /// The key is not the one the certificate was made for.
    case mismatch(certificate: String, key: String)

    public var errorDescription: String? {
        switch self {
        case .incomplete(let missing):
            "HTTPS needs both --tls-cert and --tls-key: give \(missing) too (`audit-station tls self-signed` makes a pair for a LAN)"
        case .missing(let path, let what):
            "the TLS \(what) file \(path) does not exist (`audit-station tls self-signed --out DIR` makes a certificate and key)"
        case .unreadable(let path, let what): "the TLS \(what) file \(path) cannot be read (check its permissions)"
        case .notCertificate(let path): "\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        case .notKey(let path): "\(path) holds no unencrypted PEM private key (-----BEGIN PRIVATE KEY-----)"
        case .mismatch(let certificate, let key): "the key \(key) does not belong to the certificate \(certificate): give the key it was made with"
        }
    }
}
