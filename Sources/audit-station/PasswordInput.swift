import Foundation
import Station

/// Reads a password: from standard input when asked, else at the terminal without echo.
enum PasswordInput {
    /// Never from the command line, where other users of the machine could read it.
    static func read(fromStdin: Bool, prompt: String, what: String = "password") throws -> String {
        if fromStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw StationError.usage("--\(what)-stdin: standard input held no \(what)")
            }
            return line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw StationError.usage("no terminal to ask for the \(what): pass it with --\(what)-stdin")
        }
        Terminal.write(STDERR_FILENO, prompt)
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            Terminal.write(STDERR_FILENO, "\n")
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw StationError.usage("no \(what) given") }
        return line
    }
}
