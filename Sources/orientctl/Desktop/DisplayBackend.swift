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

import ArgumentParser
import OrientClient
import OrientProtocol
import OrientationCore

/// One way of applying a rotation to a desktop.
protocol DisplayBackend: Sendable {
    /// The commands that turn the display (and its touch and pen input) to `rotation`, the rotation of
    /// `state` plus the panel offset; queries the compositor for what it needs.
    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan
}

extension DisplayBackend {
    /// Runs a query and returns its standard output.
    func query(_ arguments: [String]) async throws(QueryFailure) -> String {
        let outcome = await ExternalCommand(arguments: arguments).run()
        guard outcome.succeeded else { throw QueryFailure(message: outcome.failureText) }
        return outcome.output
    }

    /// The output to turn: `output` when one is named, else the built-in panel `find` finds; nil, its failure noted
    /// in `plan`, when there is none to find.
    func outputName(
        _ output: String?,
        else find: () async throws(QueryFailure) -> String,
        failingInto plan: inout ApplyPlan
    ) async -> String? {
        if let output { return output }
        do throws(QueryFailure) {
            return try await find()
        } catch {
            plan.failures.append(error.message)
            return nil
        }
    }

    /// The built-in panel among the names of the active outputs: the connected eDP, DSI or LVDS connector
    /// of DRM (sysfs) under its name there; without DRM, the one called eDP…, LVDS… or DSI…, else the only
    /// output.
    /// - Throws: when there is none, when the panel is not among them (switched off, the lid closed), or
    ///   when it cannot tell.
    static func builtInOutput(among names: [String], from source: String) throws(QueryFailure) -> String {
        let panels = DRMConnectors().panels
        if !panels.isEmpty {
            let matched = panels.compactMap { DRMConnectors.output(among: names, for: $0) }
            if matched.count == 1 { return matched[0] }
            let panelNames = panels.map(\.name).joined(separator: ", ")
            if matched.isEmpty {
                throw QueryFailure(
                    message: "the built-in panel (\(panelNames), from DRM) is not among the active outputs of "
                        + "\(source) (\(names.isEmpty ? "none" : names.joined(separator: ", "))): is it switched "
                        + "off? Name the output with --output"
                )
            }
            throw QueryFailure(
                message: "DRM shows several built-in panels (\(panelNames)) among the outputs of \(source): "
                    + "name the one to turn with --output"
            )
        }
        let builtIn = names.filter { name in
            ["edp", "lvds", "dsi"].contains { name.lowercased().hasPrefix($0) }
        }
        if builtIn.count == 1 { return builtIn[0] }
        if builtIn.isEmpty, names.count == 1 { return names[0] }
        if names.isEmpty { throw QueryFailure(message: "\(source) lists no active output") }
        throw QueryFailure(
            message: "cannot tell which output is the built-in panel among \(names.joined(separator: ", ")) "
                + "(from \(source)): name it with --output"
        )
    }
}
