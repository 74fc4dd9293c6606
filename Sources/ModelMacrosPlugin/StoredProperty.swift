import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// A stored instance property of a type, as both macros see it.
struct StoredProperty {
    var name: String
    var type: TypeSyntax
    var initialValue: ExprSyntax?
    var isLet: Bool

    /// `T?`, `T!` or `Optional<T>`: a parameter that may default to nil.
    var isOptional: Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        return type.as(IdentifierTypeSyntax.self)?.name.text == "Optional"
    }

    /// A closure (`@Sendable` or not), whose parameter must be `@escaping` to be stored.
    var isClosure: Bool {
        (type.as(AttributedTypeSyntax.self)?.baseType ?? type).is(FunctionTypeSyntax.self)
    }

    /// The stored properties, or nil once the failure is shown at the declaration that caused it.
    static func of(_ declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) -> [StoredProperty]? {
        do { return try of(declaration) } catch {
            context.diagnose(error.diagnostic)
            return nil
        }
    }

    /// The stored instance properties of a declaration, in order. Computed properties, static
    /// ones and lazy ones are not stored by an initializer and are left out.
    static func of(_ declaration: some DeclGroupSyntax) throws(MacroFailure) -> [StoredProperty] {
        var properties: [StoredProperty] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let modifiers = variable.modifiers.map(\.name.tokenKind)
            if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.class)) || modifiers.contains(.keyword(.lazy)) {
                continue
            }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                if let accessors = binding.accessorBlock, !accessors.onlyObservers { continue }
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    throw MacroFailure("a stored property must be one name: \(binding.pattern.trimmedDescription)", at: Syntax(binding))
                }
                guard let type = binding.typeAnnotation?.type else {
                    throw MacroFailure("give `\(pattern.identifier.text)` a type: the macro writes it out", at: Syntax(binding))
                }
                properties.append(
                    StoredProperty(name: pattern.identifier.text, type: type.trimmed, initialValue: binding.initializer?.value.trimmed, isLet: isLet))
            }
        }
        return properties
    }
}

extension AccessorBlockSyntax {
    /// Only `willSet`/`didSet`: the property is still stored.
    var onlyObservers: Bool {
        guard case .accessors(let list) = accessors else { return false }
        return list.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
    }
}

extension DeclGroupSyntax {
    /// `public ` or `package ` when the type is, so that its new members are too; else nothing.
    var accessPrefix: String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// Whether the type declares a member of this name itself (a nested type or typealias).
    func declaresType(named name: String) -> Bool {
        memberBlock.members.contains { member in
            if let nested = member.decl.as(EnumDeclSyntax.self) { return nested.name.text == name }
            if let nested = member.decl.as(StructDeclSyntax.self) { return nested.name.text == name }
            if let alias = member.decl.as(TypeAliasDeclSyntax.self) { return alias.name.text == name }
            return false
        }
    }
}

/// A macro's refusal, shown at the declaration that caused it.
struct MacroFailure: Error, DiagnosticMessage {
    let message: String
    let node: Syntax
    var diagnosticID: MessageID { MessageID(domain: "ModelMacros", id: "failure") }
    var severity: DiagnosticSeverity { .error }

    init(_ message: String, at node: Syntax) {
        self.message = message
        self.node = node
    }

    var diagnostic: Diagnostic { Diagnostic(node: node, message: self) }
}
