/// The fields of an asset that audit lists show and that a station keeps in its local copy of
/// the expected set.
public struct AssetBrief: Codable, Sendable, Equatable {
    public var id: Int64
    public var assetTag: String
    public var serialNum: String?
    public var name: String
    public var model: String?
    public var status: AssetStatus
    public var location: String?
    public var company: String?
    public var country: String

    public init(
        id: Int64, assetTag: String, serialNum: String? = nil, name: String, model: String? = nil,
        status: AssetStatus = .inStock, location: String? = nil, company: String? = nil, country: String
    ) {
        self.id = id
        self.assetTag = assetTag
        self.serialNum = serialNum
        self.name = name
        self.model = model
        self.status = status
        self.location = location
        self.company = company
        self.country = country
    }
}

extension Asset {
    public var brief: AssetBrief {
        AssetBrief(
            id: id, assetTag: assetTag, serialNum: serialNum, name: name, model: model, status: status,
            location: location, company: company, country: country)
    }
}
