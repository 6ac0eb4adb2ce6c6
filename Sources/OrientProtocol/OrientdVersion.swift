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

/// The version printed by `--version` and reported in `hello` and `status`.
public enum OrientdVersion {
    /// orientd's version.
    public static let current = "0.1.0"
}
