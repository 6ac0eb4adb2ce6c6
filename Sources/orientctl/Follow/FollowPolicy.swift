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

/// What `follow` does besides applying each orientation: its policies.
struct FollowPolicy: Sendable {
    /// Apply nothing while DRM shows an external monitor connected; apply the latest state when the last
    /// one goes.
    var pauseExternal = false
    /// Hold the natural orientation (rotation 0) while the daemon says the convertible is not in tablet mode.
    var naturalInLaptopMode = false
    /// `sh -c CMD` after each rotation applied, with the variables of `watch --exec`.
    var then: String?
    /// How long a command may run before it is killed and reported.
    var timeout = Duration.seconds(10)
}
