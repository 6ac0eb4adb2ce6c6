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

/// Where an accelerometer sits: in the lid (display) or in the base (keyboard).
public enum SensorLocation: String, Sendable, Hashable {
    case display
    case base
}
