import Foundation
import Testing

/// The outcome colours of the kiosk, read from kiosk.css, stay apart for colour-blind staff:
/// every pair is at least ΔE2000 20 apart in normal vision and under deuteranopia, protanopia and
/// tritanopia as Machado, Oliveira and Fernandes (2009) simulate them at full severity.
@Suite("The kiosk's outcome colours under colour-blindness simulation")
struct KioskPaletteTests {
    static let outcomes = ["found", "already", "unexpected", "unknown", "rejected", "misplaced"]
    static let minimum = 20.0

    @Test("Every pair of outcome colours in kiosk.css is ΔE2000 ≥ 20 apart in all four visions")
    func outcomeColoursStayApart() throws {
        let colours = try Self.cssColours()
        for name in Self.outcomes { #expect(colours[name] != nil, "--\(name) is not in kiosk.css") }
        for vision in Vision.allCases {
            for (i, first) in Self.outcomes.enumerated() {
                for second in Self.outcomes.dropFirst(i + 1) {
                    guard let a = colours[first], let b = colours[second] else { continue }
                    let distance = ColourScience.deltaE2000(vision.lab(a), vision.lab(b))
                    #expect(distance >= Self.minimum, "\(vision): --\(first) and --\(second) are only ΔE2000 \(distance) apart")
                }
            }
        }
    }

    @Test("The palette before this check fails it: FOUND and NOT RECORDED look alike under deuteranopia")
    func oldPaletteFails() {
        let found = RGB(hex: "#3ddc84")!, rejected = RGB(hex: "#ff8f87")!
        let alreadyOld = RGB(hex: "#8ab8ff")!, unknownOld = RGB(hex: "#d7b8ff")!
        #expect(ColourScience.deltaE2000(Vision.deuteranopia.lab(found), Vision.deuteranopia.lab(rejected)) < Self.minimum)
        #expect(ColourScience.deltaE2000(Vision.deuteranopia.lab(alreadyOld), Vision.deuteranopia.lab(unknownOld)) < Self.minimum)
    }

    @Test("CIEDE2000 gives Sharma, Wu and Dalal's (2005) published differences")
    func deltaE2000MatchesTheReference() {
        let pairs: [(Lab, Lab, Double)] = [
            (Lab(50, 2.6772, -79.7751), Lab(50, 0, -82.7485), 2.0425),
            (Lab(50, 0, 0), Lab(50, -1, 2), 2.3669),
            (Lab(50, 2.5, 0), Lab(73, 25, -18), 27.1492),
            (Lab(50, 2.5, 0), Lab(50, 3.1736, 0.5854), 1.0),
            (Lab(60.2574, -34.0099, 36.2677), Lab(60.4626, -34.1751, 39.4387), 1.2644),
            (Lab(22.7233, 20.0904, -46.694), Lab(23.0331, 14.973, -42.5619), 2.0373)
        ]
        for (a, b, expected) in pairs {
            #expect(abs(ColourScience.deltaE2000(a, b) - expected) < 0.0001, "\(a) \(b)")
        }
        // White stays white in every simulation; sRGB white is L* 100.
        for vision in Vision.allCases { #expect(abs(vision.lab(RGB(hex: "#ffffff")!).l - 100) < 0.5) }
    }

    /// `--name: #rrggbb;` declarations of kiosk.css.
    static func cssColours() throws -> [String: RGB] {
        let text = try cssText()
        var colours: [String: RGB] = [:]
        for match in text.matches(of: /--([a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;/) {
            let name = String(match.1)
            if colours[name] == nil { colours[name] = RGB(hex: String(match.2)) }
        }
        return colours
    }

    /// kiosk.css as served.
    static func cssText() throws -> String {
        let css = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/Kiosk/Web/kiosk.css")
            .standardizedFileURL
        return try String(contentsOf: css, encoding: .utf8)
    }
}

struct RGB {
    var r, g, b: Double // gamma-encoded sRGB, 0...1
    init?(hex: String) {
        guard hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return nil }
        r = Double((value >> 16) & 0xff) / 255
        g = Double((value >> 8) & 0xff) / 255
        b = Double(value & 0xff) / 255
    }
}

struct Lab: CustomStringConvertible {
    var l, a, b: Double
    init(_ l: Double, _ a: Double, _ b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }
    var description: String { "Lab(\(l), \(a), \(b))" }
}

/// Normal vision and the three dichromacies, as Machado et al. (2009) simulate them at severity
/// 1.0: a 3×3 matrix on linear RGB.
enum Vision: CaseIterable, CustomStringConvertible {
    case normal, deuteranopia, protanopia, tritanopia

    var matrix: [[Double]] {
        switch self {
        case .normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        case .protanopia:
            [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
        case .deuteranopia:
            [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
        case .tritanopia:
            [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
        }
    }

    var description: String {
        switch self {
        case .normal: "normal vision"
        case .deuteranopia: "deuteranopia"
        case .protanopia: "protanopia"
        case .tritanopia: "tritanopia"
        }
    }

    /// The colour as this vision sees it, in CIELAB (D65).
    func lab(_ colour: RGB) -> Lab {
        let linear = [colour.r, colour.g, colour.b].map(ColourScience.linear)
        let seen = matrix.map { row in min(1, max(0, zip(row, linear).map(*).reduce(0, +))) }
        return ColourScience.lab(linearRGB: seen)
    }
}

enum ColourScience {
    static func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }

    static func lab(linearRGB c: [Double]) -> Lab {
        let x = 0.4124564 * c[0] + 0.3575761 * c[1] + 0.1804375 * c[2]
        let y = 0.2126729 * c[0] + 0.7151522 * c[1] + 0.0721750 * c[2]
        let z = 0.0193339 * c[0] + 0.1191920 * c[1] + 0.9503041 * c[2]
        func f(_ t: Double) -> Double { t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116 }
        let fx = f(x / 0.95047), fy = f(y / 1.0), fz = f(z / 1.08883)
        return Lab(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// CIEDE2000 (Sharma, Wu and Dalal 2005), with kL = kC = kH = 1.
    static func deltaE2000(_ p: Lab, _ q: Lab) -> Double {
        let radians = Double.pi / 180
        let c1 = (p.a * p.a + p.b * p.b).squareRoot(), c2 = (q.a * q.a + q.b * q.b).squareRoot()
        let cMean = (c1 + c2) / 2
        let g = 0.5 * (1 - (pow(cMean, 7) / (pow(cMean, 7) + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * p.a, a2 = (1 + g) * q.a
        let c1p = (a1 * a1 + p.b * p.b).squareRoot(), c2p = (a2 * a2 + q.b * q.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) / radians
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(p.b, a1), h2 = hue(q.b, a2)
        let dL = q.l - p.l, dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (c1p * c2p).squareRoot() * sin(dh * radians / 2)
        let lMean = (p.l + q.l) / 2, cMeanP = (c1p + c2p) / 2
        var hMean = h1 + h2
        if c1p * c2p != 0 {
            if abs(h1 - h2) <= 180 {
                hMean = (h1 + h2) / 2
            } else {
                hMean = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2
            }
        }
        let t =
            1 - 0.17 * cos((hMean - 30) * radians) + 0.24 * cos(2 * hMean * radians) + 0.32 * cos((3 * hMean + 6) * radians)
            - 0.20 * cos((4 * hMean - 63) * radians)
        let dTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
        let rc = 2 * (pow(cMeanP, 7) / (pow(cMeanP, 7) + pow(25, 7))).squareRoot()
        let sl = 1 + 0.015 * pow(lMean - 50, 2) / (20 + pow(lMean - 50, 2)).squareRoot()
        let sc = 1 + 0.045 * cMeanP
        let sh = 1 + 0.015 * cMeanP * t
        let rt = -sin(2 * dTheta * radians) * rc
        let terms = pow(dL / sl, 2) + pow(dC / sc, 2) + pow(dH / sh, 2) + rt * (dC / sc) * (dH / sh)
        return terms.squareRoot()
    }
}
