/// Script modules that both pages load, the kiosk's and the back office's, from one file each:
/// `burst.js`, the one rule for what a barcode gun's burst of keys is. Each server serves them
/// beside its own modules (the kiosk at `/js/`, the back office at `/office/js/`).
public enum PageScripts {
    /// `burst.js`: a gun's burst (the gap between its keys, the shortest tag, the keys that end it).
    public static let burst: [UInt8] = PackageResources.burst_js
}
