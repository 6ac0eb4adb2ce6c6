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

import Glibc
import Testing

/// The parent of every suite that creates a `Testbed`: serialised, so no two testbeds exist at once (umockdev sets
/// the process-wide `UMOCKDEV_DIR`). `.serialized` applies to every suite nested in it, including those declared in
/// extensions in other files; suites outside it still run in parallel with it.
@Suite(.serialized) package struct EmulatedDeviceTests {}
