/// Adds the memberwise initializer a public model type needs (Swift gives only an internal
/// one): one parameter per stored property, in the order they are declared, with the type's
/// own access level. A property's initial value is its parameter's default, and an optional
/// property without one defaults to nil. A `let` with an initial value is left out, as Swift's
/// own memberwise initializer does.
@attached(member, names: named(init))
public macro MemberwiseInit() = #externalMacro(module: "ModelMacrosPlugin", type: "MemberwiseInitMacro")

/// Adds `encode(to:)` writing every stored property, an absent optional as `null` rather than
/// leaving its key out (Swift's own `Encodable` leaves it out): the wire formats promise every
/// key. Uses the type's `CodingKeys`, and declares them (one case per stored property) when the
/// type does not.
@attached(member, names: named(encode(to:)), named(CodingKeys))
public macro EncodesNulls() = #externalMacro(module: "ModelMacrosPlugin", type: "EncodesNullsMacro")
