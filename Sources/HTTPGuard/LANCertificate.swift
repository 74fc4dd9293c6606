import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate for a server on a LAN, which no public authority will sign: a small authority
/// of its own (the certificate phones are told to trust) and the server's certificate, signed
/// by it, for the names and addresses the phones use.
///
/// Phones ask for an authority, not a server certificate: Android installs only certificates
/// marked as an authority as "CA certificate", and iOS offers "full trust" only for those. The
/// authority's key is thrown away once it has signed, so nobody who copies the folder can make
/// other certificates that those phones would trust; a new pair means trusting the new
/// authority again. The server's certificate meets what iOS and Android ask of one: P-256,
/// the names in subjectAltName, serverAuth, at most 825 days.
public struct LANCertificate: Sendable {
    /// The authority's certificate, PEM: to install on each phone.
    public let authorityPEM: String
    /// The server's certificate followed by the authority's, PEM (`--tls-cert`).
    public let chainPEM: String
    /// The server's private key, PEM PKCS#8 (`--tls-key`).
    public let keyPEM: String

    /// 825 days, the longest that iOS accepts for a server certificate.
    public static let validDays = 825

    /// File names written by `write(to:)`.
    public static let authorityFile = "audit-station-ca.crt"
    public static let certificateFile = "server.crt"
    public static let keyFile = "server.key"

    /// Makes both certificates for `hosts` (DNS names) and `addresses` (IPv4 or IPv6).
    public init(hosts: [String], addresses: [String], now: Date = Date()) throws(LANCertificateError) {
        guard !hosts.isEmpty || !addresses.isEmpty else { throw .noNames }
        var names: [GeneralName] = []
        for host in hosts {
            guard Self.isHostName(host) else { throw .badHost(host) }
            names.append(.dnsName(host.lowercased()))
        }
        for address in addresses {
            guard let bytes = Self.addressBytes(address) else { throw .badAddress(address) }
            names.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes))))
        }
        let title = hosts.first ?? addresses[0]
        do {
            let authorityKey = P256.Signing.PrivateKey()
            let serverKey = P256.Signing.PrivateKey()
            let authorityName = try DistinguishedName {
                OrganizationName("AuditStation")
                CommonName("AuditStation LAN authority for \(title)")
            }
            let authorityPublic = Certificate.PublicKey(authorityKey.publicKey)
            let authority = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: authorityPublic, notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: now.addingTimeInterval(Double(Self.validDays) * 86_400), issuer: authorityName, subject: authorityName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: authorityPublic)
                },
                issuerPrivateKey: .init(authorityKey))
            let serverPublic = Certificate.PublicKey(serverKey.publicKey)
            let server = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: serverPublic, notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: now.addingTimeInterval(Double(Self.validDays) * 86_400), issuer: authorityName,
                subject: try DistinguishedName { CommonName(title) }, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names)
                    SubjectKeyIdentifier(hash: serverPublic)
                    AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: authorityPublic).keyIdentifier)
                },
                issuerPrivateKey: .init(authorityKey))
            authorityPEM = try authority.serializeAsPEM().pemString + "\n"
            chainPEM = try server.serializeAsPEM().pemString + "\n" + authorityPEM
            keyPEM = serverKey.pemRepresentation + "\n"
        } catch {
            throw .failed(String(describing: error))
        }
    }

    /// Writes the three files into `folder` (made if needed); the key is readable by its owner only.
    public func write(to folder: String) throws(LANCertificateError) {
        let url = URL(fileURLWithPath: folder)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let key = url.appendingPathComponent(Self.keyFile).path
            _ = FileManager.default.createFile(atPath: key, contents: nil, attributes: [.posixPermissions: 0o600])
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
            try Data(keyPEM.utf8).write(to: URL(fileURLWithPath: key))
            try Data(chainPEM.utf8).write(to: url.appendingPathComponent(Self.certificateFile))
            try Data(authorityPEM.utf8).write(to: url.appendingPathComponent(Self.authorityFile))
        } catch {
            throw .cannotWrite(folder: folder, reason: error.localizedDescription)
        }
    }

    /// Letters, digits, hyphens and dots, as DNS allows (a `*.` wildcard first is allowed).
    static func isHostName(_ host: String) -> Bool {
        let name = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
        guard !name.isEmpty, name.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address; nil for anything else.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

/// Why `tls self-signed` could not make or write the certificate.
public enum LANCertificateError: Error, LocalizedError, Equatable {
    case noNames
    case badHost(String)
    case badAddress(String)
    case failed(String)
    case cannotWrite(folder: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .noNames: "give the names phones will use for the server: --host NAME and/or --ip ADDRESS"
        case .badHost(let host): "'\(host)' is not a host name (letters, digits, hyphens and dots, such as audit.local)"
        case .badAddress(let address): "'\(address)' is not an IPv4 or IPv6 address (such as 192.168.1.20)"
        case .failed(let reason): "the certificate could not be made: \(reason)"
        case .cannotWrite(let folder, let reason): "cannot write the certificate files into \(folder): \(reason)"
        }
    }
}
