import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

@main
struct ModelMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [MemberwiseInitMacro.self, EncodesNullsMacro.self]
}

/// `@MemberwiseInit`: see its declaration in ModelMacros.
public struct MemberwiseInitMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let stored = StoredProperty.of(declaration, in: context) else { return [] }
        let properties = stored.filter { !($0.isLet && $0.initialValue != nil) }
        let parameters = properties.map { property in
            let escaping = property.isClosure ? "@escaping " : ""
            let defaultValue = property.initialValue.map { " = \($0)" } ?? (property.isOptional ? " = nil" : "")
            return "\(property.name): \(escaping)\(property.type)\(defaultValue)"
        }
        let assignments = properties.map { "self.\($0.name) = \($0.name)" }
        let text = "\(declaration.accessPrefix)init(\(parameters.joined(separator: ", "))) {\n\(assignments.joined(separator: "\n"))\n}"
        return [DeclSyntax(stringLiteral: text)]
    }
}

/// `@EncodesNulls`: see its declaration in ModelMacros.
public struct EncodesNullsMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let properties = StoredProperty.of(declaration, in: context) else { return [] }
        let writes = properties.map { "try container.encode(\($0.name), forKey: .\($0.name))" }
        var members: [DeclSyntax] = [
            DeclSyntax(
                stringLiteral: """
                    \(declaration.accessPrefix)func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    \(writes.joined(separator: "\n"))
                    }
                    """)
        ]
        if !declaration.declaresType(named: "CodingKeys") {
            let cases = properties.map(\.name).joined(separator: ", ")
            members.append(DeclSyntax(stringLiteral: "enum CodingKeys: String, CodingKey { case \(cases) }"))
        }
        return members
    }
}
