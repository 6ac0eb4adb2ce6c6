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

import OrientationCore
import Testing

@testable import SensorDevices

/// The choice between the display's IIO accelerometer and its input one, as a value: which runs, and what is told.
@Suite struct DisplaySelectionTests {
    @Test func theInputSensorRunsOnlyWhileWantedWithNoIIOOne() {
        var selection = DisplaySelection()
        for iio in [SensorState.stopped, .absent, .active, .failed] {
            #expect(selection.input(iio: iio) == .stop, "not wanted: \(iio)")
        }
        selection.wanted = true
        #expect(selection.input(iio: .absent) == .start)
        for iio in [SensorState.stopped, .active, .failed] {
            #expect(selection.input(iio: iio) == .stop, "an IIO sensor that is there wins: \(iio)")
        }
    }

    @Test func thePairHasOneStatusIIOFirst() {
        for iio in [SensorState.stopped, .active, .failed] {
            for input in [SensorState.stopped, .absent, .active, .failed] {
                #expect(DisplaySelection.status(iio: iio, input: input) == iio)
            }
        }
        #expect(DisplaySelection.status(iio: .absent, input: .stopped) == .absent, "no IIO one, the input one stopped")
        #expect(DisplaySelection.status(iio: .absent, input: .absent) == .absent)
        #expect(DisplaySelection.status(iio: .absent, input: .active) == .active)
        #expect(DisplaySelection.status(iio: .absent, input: .failed) == .failed)
    }

    @Test func eachStatusIsToldOnceWithTheOneBefore() {
        var selection = DisplaySelection()
        #expect(selection.report(.stopped) == nil, "stopped is what it starts from")
        let first = selection.report(.active)
        #expect(first?.previous == .stopped && first?.current == .active)
        #expect(selection.report(.active) == nil, "a change from one sensor to the other is no change")
        let second = selection.report(.absent)
        #expect(second?.previous == .active && second?.current == .absent)
    }
}
