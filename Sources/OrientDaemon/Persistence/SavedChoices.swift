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
import OrientationCore

/// The user's choices that outlive the daemon, the lock and the manual tablet mode, as saved in the state file:
/// the one owner of what ``StateStore`` keeps. A choice changes here only once it is on disk, and each save writes
/// both, so that saving one never loses the other.
final class SavedChoices {
    private let store: StateStore
    private let logger: Logger
    /// The lock as saved; nil when unlocked.
    private(set) var lock: InterfaceOrientationMask?
    /// The manual tablet mode as saved; nil for `auto`.
    private(set) var tabletMode: Bool?

    /// Reads the saved choices (a missing or broken file gives the defaults: ``StateStore/load()``).
    init(store: StateStore, logger: Logger) {
        self.store = store
        self.logger = logger
        let saved = store.load()
        lock = saved.lock
        tabletMode = saved.tabletMode
    }

    /// Saves a new lock (nil: unlocked), keeping the tablet mode.
    /// - Throws: ``StateStoreError`` when it cannot be written; nothing changes then.
    func save(lock: InterfaceOrientationMask?) throws(StateStoreError) {
        try save(PersistedState(lock: lock, tabletMode: tabletMode), failure: "the lock could not be saved")
        self.lock = lock
    }

    /// Saves a new manual tablet mode (nil: `auto`), keeping the lock.
    /// - Throws: ``StateStoreError`` when it cannot be written; nothing changes then.
    func save(tabletMode: Bool?) throws(StateStoreError) {
        try save(PersistedState(lock: lock, tabletMode: tabletMode), failure: "the tablet mode could not be saved")
        self.tabletMode = tabletMode
    }

    private func save(_ state: PersistedState, failure: Logger.Message) throws(StateStoreError) {
        do {
            try store.save(state)
        } catch {
            logger.error(failure, metadata: ["error": "\(error)"])
            throw error
        }
    }

    /// Restores the saved choices into `policy` and `tablet` (made from `settings`): the manual tablet mode, and a
    /// lock that still intersects `Supported=` (one that does not is dropped, and the file rewritten).
    func restore(into policy: inout RotationPolicy, _ tablet: inout TabletModeState, settings: DaemonSettings) {
        if let mode = tabletMode {
            _ = tablet.setManual(mode)
            _ = policy.setFollowsDevice(settings.autoRotate.followsDevice(tabletMode: mode))
            logger.info("manual tablet mode restored", metadata: ["tablet_mode": "\(mode ? "on" : "off")"])
        }
        guard let lock else { return }
        do {
            _ = try policy.setLock(lock)
            logger.info("lock restored", metadata: ["lock": "\(lock)"])
        } catch {
            logger.warning(
                "the saved lock no longer intersects Supported=: dropped",
                metadata: ["lock": "\(lock)", "supported": "\(settings.supported)"]
            )
            try? save(lock: nil)
        }
    }
}
