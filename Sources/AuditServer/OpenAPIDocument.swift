/// The OpenAPI document of the API, served at /openapi.yaml: Sources/AuditServer/openapi.yaml,
/// embedded at build time. It is the API's one source; the comment at its top says why server
/// and client stay hand-written and how the tests hold both to its schemas.
public enum OpenAPIDocument {
    public static let yaml = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
}
