import ArgumentParser
import HTTPGuard

/// `--tls-cert` and `--tls-key`, as `serve`, `office` and `kiosk` take them: both to serve
/// HTTPS on the port, neither for plain HTTP.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            "Serve HTTPS with this PEM certificate (chain) on the same port; with --tls-key (`audit-station tls self-signed` makes both).",
            valueName: "pem"))
    var certificate: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "pem"))
    var key: String?

    func validate() throws {
        do { _ = try TLSFiles.from(certificate: certificate, key: key) } catch { throw ValidationError(error.localizedDescription) }
    }

    /// The files, or nil for plain HTTP.
    var files: TLSFiles? { try? TLSFiles.from(certificate: certificate, key: key) }

    /// `http` or `https`, for the address a command prints.
    var scheme: String { files == nil ? "http" : "https" }
}
