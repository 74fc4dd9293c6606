import AuditServer
import Foundation
@_exported import TestKit

/// The schemas of the served OpenAPI document, checked by scripts/openapi_check.py (python3 with
/// PyYAML, jsonschema and openapi-schema-validator). A target is a schema pointer
/// (`#/components/schemas/Asset`), an operation's answer (`GET /api/v2/assets/{id} 200`) or its
/// request body (`POST /api/v2/assets request`), optionally followed by a content type.
public enum OpenAPICheck {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/openapi_check.py")

    /// The document as served, written once to a temporary file for the script.
    static let documentFile: URL = {
        let file = Scratch.file("openapi", suffix: ".yaml")
        try? Data(OpenAPIDocument.yaml.utf8).write(to: file)
        return file
    }()

    public struct Operation: Decodable, Sendable, Hashable {
        public struct Parameter: Decodable, Sendable, Hashable {
            public var name: String
            public var `in`: String
            public var required: Bool
        }
        public var method: String
        public var path: String
        public var parameters: [Parameter]
        /// The request body's content types.
        public var request: [String]
        /// Status (or `default`) → content types.
        public var responses: [String: [String]]
        public var key: String { "\(method) \(path)" }
    }

    /// One body to check against a target; `strict` refuses properties the schema does not name.
    public struct Case: Encodable, Sendable {
        public var label: String
        public var target: String
        public var body: JSONValue
        public var strict: Bool
        public init(label: String, target: String, body: JSONValue, strict: Bool = false) {
            self.label = label
            self.target = target
            self.body = body
            self.strict = strict
        }
    }

    public struct Problem: Decodable, Sendable, CustomStringConvertible {
        public var label: String
        public var errors: [String]
        public var description: String { "\(label):\n  " + errors.joined(separator: "\n  ") }
    }

    /// Three bodies made from a target's schema, each checked against it by the script.
    public struct Examples: Decodable, Sendable {
        /// Only the required fields.
        public var required: JSONValue
        /// Every field, null wherever the schema allows null.
        public var nulls: JSONValue
        /// Every field with a value, and fields the schema does not name.
        public var extra: JSONValue
        /// Where a made body does not match its own schema (a fault of the script or document).
        public var problems: [String]

        public var variants: [(name: String, body: JSONValue)] { [("required", required), ("nulls", nulls), ("extra", extra)] }
    }

    public static func operations() async throws -> [Operation] {
        try JSONDecoder().decode([Operation].self, from: try await run(["operations"]))
    }

    public static func validate(_ cases: [Case]) async throws -> [Problem] {
        try JSONDecoder().decode([Problem].self, from: try await run(["validate"], input: try JSONEncoder().encode(cases)))
    }

    public static func examples(_ targets: [String]) async throws -> [String: Examples] {
        try JSONDecoder().decode([String: Examples].self, from: try await run(["examples"] + targets))
    }

    /// Runs the script to its end and returns its standard output.
    static func run(_ arguments: [String], input: Data = Data()) async throws -> Data {
        let output = try await Child.run("/usr/bin/env", ["python3", script.path, documentFile.path] + arguments, input: input)
        guard output.status == 0 else {
            throw ScriptFailure(message: "openapi_check.py \(arguments.first ?? "") failed: " + output.stderr.suffix(3000))
        }
        return Data(output.stdout.utf8)
    }

    struct ScriptFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
