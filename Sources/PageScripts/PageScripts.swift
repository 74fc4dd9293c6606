/// Script modules that several pages load, from one file each: the kiosk's, the phone page's and
/// the back office's. Each server serves them beside its own modules (the kiosk at `/js/`, the
/// phone page at `/scan/js/`, the back office at `/office/js/`), so a page imports them as its own.
public enum PageScripts {
    /// `elements.js`: the DOM helpers (`$`, `make`, `setText`).
    public static let elements: [UInt8] = PackageResources.elements_js
    /// `burst.js`: a gun's burst (the gap between its keys, the shortest tag, the keys that end it).
    public static let burst: [UInt8] = PackageResources.burst_js
    /// `format.js`: values from a server made safe, numbers, times, storage that never throws, scan ids.
    public static let format: [UInt8] = PackageResources.format_js
    /// `words.js`: the words of each scan outcome and reason.
    public static let words: [UInt8] = PackageResources.words_js
    /// `sound.js`: the outcome sounds (Web Audio).
    public static let sound: [UInt8] = PackageResources.sound_js
    /// `queue.js`: a page's scan queue, kept in localStorage until the server answered each scan.
    public static let queue: [UInt8] = PackageResources.queue_js
    /// `login.js`: a page's login in sessionStorage, and the headers of its calls (back office, phone).
    public static let login: [UInt8] = PackageResources.login_js
}
