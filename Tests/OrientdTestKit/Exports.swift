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

// The kit's suites use the shared support (the seeded generator, the program runner, a process's resources) as
// their own: importing the kit brings it.
@_exported public import OrientdTestSupport
