//===----------------------------------------------------------------------===//
//
// This source file is part of the orientd open source project
//
// Copyright (c) 2026 the orientd project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import OrientDaemon
import OrientationCore
import SensorDevices
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The file format, the order of files, and the mistakes that are not about one value.
@Suite struct ConfigurationParserTests {
    @Test func commentsWhitespaceAndEmptyLines() throws {
        let text = """
            # a comment
            ; another comment

              [Sensor]  
            \tRate =  50\t
               # indented comment
            MountMatrix= 0, 1, 0; -1, 0, 0; 0, 0, 1
            [Policy]
            Supported =landscape portrait\r
            """
        let configuration = try Configuration(texts: [("a.conf", text)])
        #expect(configuration.settings.sensor.rate == 50)
        #expect(configuration.settings.supported == [.landscape, .portrait])
        #expect(configuration.entry("Rate", in: "Sensor")?.source == .file("a.conf", line: 5))
        #expect(configuration.entry("MountMatrix", in: "Sensor")?.value == "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(configuration.entry("Supported", in: "Policy")?.source == .file("a.conf", line: 9))
    }

    /// The text, the expected line and reason of its one error, and a part of its description.
    static let mistakes: [(String, Int, String)] = [
        ("[Sensr]\nRate=20\n", 1, "a.conf:1: [Sensr]: unknown section; allowed: [Sensor], [Classifier]"),
        ("[Sensor]\nrate=20\n", 2, "a.conf:2: [Sensor] rate=20: unknown key; allowed: Device=, URI=, Rate="),
        ("[Log]\nLevel=info\nFoo = bar\n", 3, "a.conf:3: [Log] Foo=bar: unknown key; allowed: Level="),
        (
            "[Sensor]\nRate=20\n[Log]\n[Sensor]\nRate = 30\n", 5,
            "a.conf:5: [Sensor] Rate=30: set twice in one file (first on line 2)"
        ),
        ("[Sensor]\nRate\n", 2, "a.conf:2: 'Rate' is neither a [Section]"),
        ("[Sensor]\n=20\n", 2, "a.conf:2: '=20' is neither"),
        ("[Sensor\nRate=20\n", 1, "a.conf:1: '[Sensor' is neither"),
        ("Rate=20\n[Sensor]\n", 1, "a.conf:1: Rate=20: a key before any [Section]"),
    ]

    @Test(arguments: mistakes)
    func mistake(text: String, line: Int, message: String) throws {
        let errors = try #require(throws: ConfigurationErrors.self) { try Configuration(texts: [("a.conf", text)]) }
        #expect(errors.errors.count == 1, "\(errors)")
        #expect(errors.errors.first?.line == line)
        #expect(errors.description.hasPrefix(message), "\(errors)")
    }

    @Test func everyMistakeIsReported() throws {
        let text = "[Sensor]\nRate=1\nDwellMs=100\n[Classifier]\nFilterMs=5\n"
        let errors = try #require(throws: ConfigurationErrors.self) { try Configuration(texts: [("a.conf", text)]) }
        #expect(errors.errors.map(\.line) == [2, 3, 5])
        #expect(errors.description.split(separator: "\n").count == 3)
    }

    @Test func keysAreCaseSensitiveAndSectionsToo() throws {
        #expect(throws: ConfigurationErrors.self) { try Configuration(texts: [("a.conf", "[sensor]\nRate=20\n")]) }
        #expect(throws: ConfigurationErrors.self) { try Configuration(texts: [("a.conf", "[Sensor]\nRATE=20\n")]) }
    }

    @Test func laterFilesWinAndTheSameKeyInTwoFilesIsFine() throws {
        let configuration = try Configuration(texts: [
            ("main.conf", "[Sensor]\nRate=30\n[Log]\nLevel=debug\n"),
            ("10-a.conf", "[Sensor]\nRate=40\n"),
            ("20-b.conf", "[Sensor]\nRate=50\n"),
        ])
        #expect(configuration.settings.sensor.rate == 50)
        #expect(configuration.entry("Rate", in: "Sensor")?.source == .file("20-b.conf", line: 2))
        #expect(configuration.entry("Level", in: "Log")?.source == .file("main.conf", line: 4))
        #expect(configuration.settings.logLevel == .debug)
    }

    @Test func dropInsAreReadInLexicalOrderAfterTheMainFile() throws {
        try withTemporaryDirectory { directory in
            let folder = directory + "/orientd.conf.d"
            mkdir(folder, 0o755)
            writeText(directory + "/orientd.conf", "[Server]\nMaxClients=10\nOutputLimitKiB=32\n")
            writeText(folder + "/50-b.conf", "[Server]\nMaxClients=50\n")
            writeText(folder + "/10-a.conf", "[Server]\nMaxClients=20\nOutputLimitKiB=64\n")
            writeText(folder + "/99-z.conf.disabled", "[Server]\nMaxClients=99\n")
            writeText(folder + "/.hidden.conf", "[Server]\nMaxClients=98\n")
            mkdir(folder + "/dir.conf", 0o755)
            let configuration = try Configuration.load(file: directory + "/orientd.conf", dropInFolder: folder)
            #expect(
                configuration.files.map(\.path) == [
                    directory + "/orientd.conf", folder + "/10-a.conf", folder + "/50-b.conf",
                ]
            )
            #expect(configuration.settings.maxClients == 50)
            #expect(configuration.settings.outputLimit == 64 * 1024)
            #expect(configuration.entry("MaxClients", in: "Server")?.source == .file(folder + "/50-b.conf", line: 2))
            #expect(
                configuration.entry("OutputLimitKiB", in: "Server")?.source == .file(folder + "/10-a.conf", line: 3)
            )
        }
    }

    @Test func aMissingMainFileAndFolderGiveTheDefaults() throws {
        try withTemporaryDirectory { directory in
            let configuration = try Configuration.load(
                file: directory + "/none.conf",
                dropInFolder: directory + "/none.d"
            )
            #expect(configuration.files.count == 1 && configuration.files.first?.found == false)
            #expect(configuration.entries.allSatisfy { $0.source == .defaultValue })
            #expect(configuration.report.contains("none.conf (not found)"))
        }
    }

    @Test func aMissingMainFileStillReadsTheDropIns() throws {
        try withTemporaryDirectory { directory in
            writeText(directory + "/a.conf", "[Policy]\nSupported=landscape\n")
            let configuration = try Configuration.load(file: directory + "/none.conf", dropInFolder: directory)
            #expect(configuration.settings.supported == .landscape)
        }
    }

    @Test func aBadDropInNamesItsFile() throws {
        try withTemporaryDirectory { directory in
            writeText(directory + "/a.conf", "[Policy]\nSupported=landscape\n")
            writeText(directory + "/b.conf", "\n[Policy]\nNatural=round\n")
            let errors = try #require(throws: ConfigurationErrors.self) {
                try Configuration.load(file: directory + "/none.conf", dropInFolder: directory)
            }
            #expect(errors.description.hasPrefix(directory + "/b.conf:3: [Policy] Natural=round: "))
        }
    }

    @Test func anUnreadableFileIsAnError() throws {
        try withTemporaryDirectory { directory in
            mkdir(directory + "/orientd.conf", 0o755)
            let errors = try #require(throws: ConfigurationErrors.self) {
                try Configuration.load(file: directory + "/orientd.conf", dropInFolder: directory + "/none.d")
            }
            #expect(errors.description.hasPrefix(directory + "/orientd.conf: cannot be read: "))
        }
    }

    @Test func theShippedFileUncommentedGivesTheDefaults() throws {
        let path = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))
        let shipped = try #require(readText("/" + path + "/config/orientd.conf"))
        let commentedKeys = shipped.split(separator: "\n").filter { $0.hasPrefix("#") && $0.contains("=") }
            .filter { $0.dropFirst().first?.isUppercase == true }
        #expect(commentedKeys.count == 25, "every key is in config/orientd.conf")
        let uncommented = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") && line.dropFirst().first?.isUppercase == true && line.contains("=")
                ? String(line.dropFirst()) : String(line)
        }.joined(separator: "\n")
        let configuration = try Configuration(texts: [("orientd.conf", uncommented)])
        let defaults = try Configuration(texts: [("orientd.conf", nil)])
        #expect(configuration.entries.map(\.value) == defaults.entries.map(\.value))
        #expect(configuration.entries.allSatisfy { $0.source != .defaultValue })
        #expect(shipped.contains("with neither,\n# tablet-mode rotates as always does."))
    }
}
