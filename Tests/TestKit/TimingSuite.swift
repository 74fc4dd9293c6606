import Testing

/// The parent of every suite whose checks depend on time: a camera's frame pace, kills mid-way,
/// deadlines for slow or dead peers, a browser. They run one at a time, so two of them never
/// share the two cores; everything else runs in parallel beside them. A suite joins it by
/// being declared in an extension: `extension TimingSensitive { @Suite struct … }`.
@Suite(.serialized) public enum TimingSensitive {}
