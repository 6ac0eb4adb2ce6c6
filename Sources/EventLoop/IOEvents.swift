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

import CSystemd

/// The readiness conditions of a file descriptor, as epoll(7) reports them.
public struct IOEvents: OptionSet, Sendable {
    /// The epoll event bits.
    public let rawValue: UInt32

    /// Creates a set from epoll event bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Data can be read (`EPOLLIN`).
    public static let readable = IOEvents(rawValue: EPOLLIN.rawValue)
    /// Data can be written (`EPOLLOUT`).
    public static let writable = IOEvents(rawValue: EPOLLOUT.rawValue)
    /// An error condition (`EPOLLERR`); reported whether or not it was asked for.
    public static let error = IOEvents(rawValue: EPOLLERR.rawValue)
    /// The peer hung up or the device went away (`EPOLLHUP`); reported whether or not it was asked for.
    public static let hangUp = IOEvents(rawValue: EPOLLHUP.rawValue)
}
