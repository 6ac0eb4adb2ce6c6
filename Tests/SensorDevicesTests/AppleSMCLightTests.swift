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

import Foundation
import Testing

@testable import SensorDevices

/// The `light` attribute of Apple's SMC, `(left,right)`, and the level served from it.
@Suite struct AppleSMCLightTests {
    @Test(arguments: [
        ("(12,34)\n", 12, 34), ("(0,0)", 0, 0), ("(255,1)\n", 255, 1), (" ( 7 , 9 ) \n", 7, 9),
        // Machines whose SMC reports 14 bits (the kernel shifts a 16-bit value).
        ("(4095,16383)\n", 4095, 16383),
    ])
    func aReadingParses(text: String, left: Int, right: Int) throws {
        let reading = try AppleSMCLight(parsing: text)
        #expect(reading.left == left)
        #expect(reading.right == right)
    }

    @Test func theLevelIsTheBrighterSensorAsAPercentageOf255() throws {
        #expect(try AppleSMCLight(parsing: "(255,0)").level == 100)
        #expect(try AppleSMCLight(parsing: "(0,0)").level == 0)
        // iio-sensor-proxy divides in single precision: 200 / 255 prints as 78.431374, not 78.431373.
        #expect(String(format: "%f", try AppleSMCLight(parsing: "(200,51)\n").level) == "78.431374")
        #expect(String(format: "%f", try AppleSMCLight(parsing: "(12,34)\n").level) == "13.333334")
        #expect(abs(ClaimedSensorChannel.hwmonLight.value(ofText: "(51,0)\n")! - 20) < 1e-5)
        #expect(ClaimedSensorChannel.hwmonLight.unit == .vendor)
    }

    @Test(arguments: [
        ("", AppleSMCLightError.Reason.notParenthesized),
        ("\n", .notParenthesized),
        ("12,34\n", .notParenthesized),
        ("(12,34\n", .notParenthesized),
        ("(12,34)x\n", .trailingText),
        ("(12;34)\n", .notTwoValues(1)),
        ("(1,2,3)\n", .notTwoValues(3)),
        ("(12,)\n", .notANumber("")),
        ("(a,34)\n", .notANumber("a")),
        ("(1.5,34)\n", .notANumber("1.5")),
        ("(12,-3)\n", .negative(-3)),
        ("(99999999999999999999,1)", .notANumber("99999999999999999999")),
    ])
    func aTextThatIsNotAReadingIsAClearError(text: String, reason: AppleSMCLightError.Reason) {
        #expect(throws: AppleSMCLightError(text: text, reason: reason)) { try AppleSMCLight(parsing: text) }
        #expect(ClaimedSensorChannel.hwmonLight.value(ofText: text) == nil, "nothing is served from \(text)")
    }

    @Test func theMessageShowsTheTextAndWhatIsWrong() {
        let error = AppleSMCLightError(text: "(12;34)\n", reason: .notTwoValues(1))
        #expect(
            error.description == "the applesmc light reading '(12;34)\\n' is not (left,right): it has 1 values, not 2"
        )
        let negative = AppleSMCLightError(text: "(1,-3)", reason: .negative(-3))
        #expect(negative.description.hasSuffix("-3 is negative"))
    }
}
