import Foundation
import OrientationCore
import Testing

/// The inputs the trace reader's fuzz target (Fuzz/TraceReaderFuzzer) failed on, kept in
/// Fuzz/Regressions/trace-reader/. Each is read as `orientd classify` reads a trace (lines split
/// at `\n`, bytes decoded as UTF-8) and must give the clear error written here for it.
@Suite struct TraceReaderFuzzRegressionTests {
    /// Every kept input, by file name: the line of its first error and how the message starts.
    static let expectedErrors: [String: (line: Int, message: String)] = [
        // `Double(_:)` stopped at the NUL and read "0": the field is no number.
        "nul-inside-a-number.trace": (1, "x '0\u{0}")
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/Regressions/trace-reader").standardized

    @Test func everyKeptInputHasAnExpectedError() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        #expect(Set(names) == Set(Self.expectedErrors.keys))
    }

    @Test(arguments: expectedErrors.keys.sorted())
    func keptInputGivesItsError(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        var reader = TraceReader()
        var firstError: TraceError?
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            do {
                _ = try reader.read(line: String(decoding: line, as: UTF8.self))
            } catch {
                firstError = error
                break
            }
        }
        let error = try #require(firstError, "\(name) was read without an error")
        let expected = try #require(Self.expectedErrors[name])
        #expect(error.line == expected.line)
        #expect(error.message.hasPrefix(expected.message), "\(error)")
    }

    @Test(arguments: ["0.0,1\u{0}5,0,0", "0\u{0},0,0,0", "0,0,0,9.81\u{0}"])
    func aNumberWithANULIsRefused(line: String) {
        var reader = TraceReader()
        #expect(throws: TraceError.self) { try reader.read(line: line) }
    }

    @Test func aRateWithANULIsRefused() {
        var reader = TraceReader()
        let error = #expect(throws: TraceError.self) { try reader.read(line: "# rate_hz=25\u{0}0") }
        #expect(error?.line == 1)
        #expect(error?.message == "rate_hz '25\u{0}0' is not a positive number")
        #expect(reader.rateHz == nil)
    }
}
