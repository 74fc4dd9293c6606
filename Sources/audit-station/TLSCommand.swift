import ArgumentParser
import Foundation
import HTTPGuard

extension AuditStation {
    struct TLS: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tls", abstract: "Certificates for serving HTTPS (a phone's browser gives a page its camera only over HTTPS).",
            subcommands: [SelfSigned.self])
    }
}

extension AuditStation.TLS {
    struct SelfSigned: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "self-signed",
            abstract: "Make a certificate and key for a server on a LAN, and print how to trust it on Android and iOS.",
            discussion: """
                Writes server.crt and server.key (for --tls-cert and --tls-key of serve, office and kiosk) and \
                audit-station-ca.crt, the authority that signed them, which each phone installs once. The authority's \
                own key is not kept: nobody can sign another certificate those phones would trust, and running this \
                again makes a new authority to install again. Valid 825 days, the most iOS accepts.
                """)
        @Option(help: "A name phones reach the server by (such as audit.local); repeat for more.") var host: [String] = []
        @Option(help: "An address phones reach the server by (such as 192.168.1.20); repeat for more.") var ip: [String] = []
        @Option(help: "The folder to write the files into (made if needed).") var out: String

        func validate() throws {
            if host.isEmpty && ip.isEmpty { throw ValidationError("give the names phones will use for the server: --host NAME and/or --ip ADDRESS") }
        }

        func run() async throws {
            try await runReportingErrors {
                let certificate = try LANCertificate(hosts: host, addresses: ip)
                try certificate.write(to: out)
                let folder = URL(fileURLWithPath: out).standardizedFileURL.path
                let address = host.first ?? ip[0]
                print(Self.steps(folder: folder, address: address))
            }
        }

        static func steps(folder: String, address: String) -> String {
            let ca = "\(folder)/\(LANCertificate.authorityFile)"
            return """
                Wrote \(folder)/\(LANCertificate.certificateFile), \(folder)/\(LANCertificate.keyFile) (mode 0600) and \(ca).

                Serve HTTPS:
                  audit-station serve --host 0.0.0.0 --tls-cert \(folder)/\(LANCertificate.certificateFile) --tls-key \(folder)/\(LANCertificate.keyFile)
                Phones then open https://\(address):8080/scan

                Trust it on each phone, once (send \(LANCertificate.authorityFile) by mail or chat, or copy it over USB):
                  Android: Settings > Security and privacy > More security settings > Encryption and credentials >
                           Install a certificate > CA certificate > Install anyway, and pick \(LANCertificate.authorityFile).
                           (The menu names differ a little between makers; search Settings for "CA certificate".)
                  iOS:     open \(LANCertificate.authorityFile) in Safari or Files and allow the download, then
                           Settings > General > VPN & Device Management > the AuditStation profile > Install;
                           then Settings > General > About > Certificate Trust Settings > turn on full trust for it.
                Check: the phone's browser opens https://\(address):8080/health without a warning.
                """
        }
    }
}
