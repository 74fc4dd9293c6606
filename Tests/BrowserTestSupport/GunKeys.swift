import Foundation
import TestKit

/// A keyboard-wedge barcode gun's keys, as the page gets them from a real gun: each key event
/// stamped a few milliseconds after the one before, whenever it is delivered.
///
/// WebDriver's keys (`sendKeys`) are stamped by the browser when each of them arrives, and
/// chromedriver sends them one at a time: on a machine busy with the rest of the suite they
/// arrived up to hundreds of milliseconds apart, which is a person's typing, not a gun's, and a
/// burst test failed now and then for that alone. A gun's keys reach the page through the
/// keyboard with the times they were typed at, so a page that is slow to handle them still sees
/// a burst; these are sent through the DevTools protocol (`Input.dispatchKeyEvent` with its
/// `timestamp`, which becomes the event's `timeStamp`) with the same key events WebDriver sends:
/// Shift around capital letters, and `key`, `code` and key code of a US keyboard. Enter presses
/// buttons and submits forms as a real Enter does, unless the page prevents it.
///
/// A gun's key events are stamped 10–15 ms apart (`gunEventGaps`), each one: a capital letter's
/// four events (Shift down, the key down and up, Shift up) put up to 60 ms between it and the
/// character before, as a gun that presses Shift around capitals does. Every event is sent at
/// its time, as a gun's keys reach the page, never ahead of it.
extension BrowserSession {
    /// A gun's keys (`gunEventGaps`); as `gap`, it names them rather than one gap.
    public static let gunKeyGap = 0.0125

    /// The gaps between a gun's key events, in seconds, taken in turn.
    public static let gunEventGaps = [0.010, 0.013, 0.015, 0.011, 0.014, 0.012]

    /// A person's keys, in seconds apart (people type 100 ms a key and slower).
    public static let personKeyGap = 0.15
    /// A password manager's auto-type (KeePassXC types a key about every 25 ms, then Enter).
    public static let autoTypeKeyGap = 0.025

    /// Types `text` (a new line in it is an Enter: several tags) and then `end` (Enter, Tab, or
    /// nothing) into whatever has the focus, as a gun; with another `gap` (seconds from one
    /// character to the next), as a person or a password manager. `textAlone` sends each key as
    /// some harnesses do, with its text and nothing else (the page sees no key's name on keydown).
    public func gunKeys(_ text: String, then end: GunKey? = .enter, gap: Double = gunKeyGap, textAlone: Bool = false) async throws {
        var events: [JSONValue] = []
        var time = Date().timeIntervalSince1970
        func add(_ type: String, _ key: GunKey, shift: Bool) {
            if textAlone {
                // Only the text, as some harnesses send keys: no key, code or key code, no Shift.
                guard !key.isShift else { return }
                var params: [String: JSONValue] = ["type": .string(type == "keyUp" ? "keyUp" : "keyDown"), "timestamp": .number(time)]
                if type != "keyUp", let text = key.text { params["text"] = .string(text) }
                events.append(.object(params))
                time += Self.gunEventGaps[events.count % Self.gunEventGaps.count]
                return
            }
            var params: [String: JSONValue] = [
                "type": .string(type), "key": .string(key.key), "code": .string(key.code),
                "windowsVirtualKeyCode": .number(Double(key.keyCode)), "nativeVirtualKeyCode": .number(Double(key.keyCode)),
                "modifiers": .number(shift ? 8 : 0), "timestamp": .number(time)
            ]
            if type == "keyDown", let text = key.text {
                params["text"] = .string(text)
                params["unmodifiedText"] = .string(text)
            }
            events.append(.object(params))
            time += gap == Self.gunKeyGap ? Self.gunEventGaps[events.count % Self.gunEventGaps.count] : gap / 2
        }
        for character in text {
            if character == "\n" {
                // The Enter that ends one tag of several.
                add("keyDown", .enter, shift: false)
                add("keyUp", .enter, shift: false)
                continue
            }
            let key = GunKey(character)
            if key.shift { add("rawKeyDown", .shift, shift: true) }
            add("keyDown", key, shift: key.shift)
            add("keyUp", key, shift: key.shift)
            if key.shift { add("keyUp", .shift, shift: false) }
        }
        if let end {
            add(end.text == nil ? "rawKeyDown" : "keyDown", end, shift: false)
            add("keyUp", end, shift: false)
        }
        for event in events {
            // No key is stamped in the future: each waits for its time.
            if let at = event["timestamp"]?.doubleValue {
                let wait = at - Date().timeIntervalSince1970
                if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
            }
            try await command("POST", "/goog/cdp/execute", ["cmd": "Input.dispatchKeyEvent", "params": event])
        }
    }
}

extension Element {
    /// Focuses this element as WebDriver's `sendKeys` does (the text cursor at the end of a field
    /// that was not focused), then types `text` and `end` into it as a gun (`BrowserSession.gunKeys`).
    public func gunKeys(
        _ text: String, then end: GunKey? = .enter, gap: Double = BrowserSession.gunKeyGap, textAlone: Bool = false
    ) async throws {
        try await session.execute(
            """
            const e = arguments[0];
            if (document.activeElement !== e) {
              e.focus();
              if (typeof e.value === 'string' && e.setSelectionRange) { try { e.setSelectionRange(e.value.length, e.value.length); } catch (x) {} }
            }
            """, [json])
        try await session.gunKeys(text, then: end, gap: gap, textAlone: textAlone)
    }
}

/// One key of a US keyboard: what it types, its `key` and `code`, its key code and whether it
/// needs Shift.
public struct GunKey: Sendable {
    public let key: String
    public let code: String
    public let keyCode: Int
    public let shift: Bool
    public let text: String?

    public static let shift = GunKey(key: "Shift", code: "ShiftLeft", keyCode: 16, shift: false, text: nil)
    public static let enter = GunKey(key: "Enter", code: "Enter", keyCode: 13, shift: false, text: "\r")
    public static let tab = GunKey(key: "Tab", code: "Tab", keyCode: 9, shift: false, text: nil)

    var isShift: Bool { key == "Shift" }
}

extension GunKey {
    /// The punctuation keys: the character without Shift, with Shift, the code and the key code.
    private static let punctuation: [(String, String, String, Int)] = [
        ("-", "_", "Minus", 189), ("=", "+", "Equal", 187), ("[", "{", "BracketLeft", 219), ("]", "}", "BracketRight", 221),
        ("\\", "|", "Backslash", 220), (";", ":", "Semicolon", 186), ("'", "\"", "Quote", 222), (",", "<", "Comma", 188),
        (".", ">", "Period", 190), ("/", "?", "Slash", 191), ("`", "~", "Backquote", 192)
    ]
    private static let shiftedDigits = Array(")!@#$%^&*(")

    public init(_ character: Character) {
        let text = String(character)
        if let ascii = character.asciiValue, character.isLetter {
            let upper = Character(text.uppercased())
            self.init(key: text, code: "Key\(upper)", keyCode: Int(upper.asciiValue ?? ascii), shift: character.isUppercase, text: text)
        } else if let digit = character.wholeNumberValue, character.isASCII {
            self.init(key: text, code: "Digit\(digit)", keyCode: 48 + digit, shift: false, text: text)
        } else if let digit = Self.shiftedDigits.firstIndex(of: character) {
            self.init(key: text, code: "Digit\(digit)", keyCode: 48 + digit, shift: true, text: text)
        } else if character == " " {
            self.init(key: " ", code: "Space", keyCode: 32, shift: false, text: " ")
        } else if let row = Self.punctuation.first(where: { $0.0 == text || $0.1 == text }) {
            self.init(key: text, code: row.2, keyCode: row.3, shift: row.1 == text, text: text)
        } else {
            // Not on a US keyboard: the character alone, as a gun set to send Unicode would.
            self.init(key: text, code: "", keyCode: 0, shift: false, text: text)
        }
    }
}
