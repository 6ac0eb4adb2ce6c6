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

import EventLoop
import OrientProtocol
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a ``ClientConnection`` tells its owner (the ``ControlServer``), given when it is made.
protocol ClientConnectionDelegate: AnyObject {
    /// A complete request line arrived.
    func connection(_ connection: ClientConnection, received line: [UInt8])
    /// The connection must go (EOF with nothing left to do, an error, over its bound); called once.
    func connectionClosed(_ connection: ClientConnection, reason: String)
    /// Whether to keep a connection whose client closed its sending side (it still wants events).
    func connectionStaysAfterReadClose(_ connection: ClientConnection) -> Bool
}

/// One connection to the control socket: its IO source, its line framer and its bounded output queue.
///
/// Output is queued and written when the socket is writable; a connection whose unsent output
/// passes the limit is closed, so that nobody else ever waits for it.
final class ClientConnection {
    let id: ClientID
    let fd: FileDescriptor
    let peer: PeerCredentials?
    private var source: IOSource?
    private var framer = LineFramer(limit: 4096)
    private var output: [UInt8] = []
    private var outputStart = 0
    private let outputLimit: Int
    /// The client closed its sending side: no more requests, events still go out.
    private(set) var readClosed = false
    /// Set once the connection is to be closed.
    private(set) var isClosed = false
    /// Whether it was closed for letting its unsent output pass the bound.
    private(set) var droppedForNotReading = false

    private unowned let delegate: any ClientConnectionDelegate

    /// Watches `fd` (accepted, non-blocking), reporting to `delegate`, held unowned: it owns the connection.
    init(
        id: ClientID,
        fd: FileDescriptor,
        loop: EventLoop,
        outputLimit: Int,
        delegate: any ClientConnectionDelegate
    ) throws(EventLoopError) {
        self.id = id
        self.fd = fd
        self.outputLimit = outputLimit
        self.delegate = delegate
        peer = try? PeerCredentials.of(socket: fd)
        source = try loop.addIO(fd: fd.rawValue, events: .readable) { [unowned self] events in self.ready(events) }
    }

    deinit {
        source = nil
        fd.close()
    }

    /// Stops all callbacks; the fd closes when the object goes.
    func shutDown() {
        isClosed = true
        source = nil
    }

    /// Bytes not yet written.
    var pendingOutput: Int { output.count - outputStart }

    /// Bytes the output queue holds: the unsent ones and the written ones not yet removed.
    var queuedByteCount: Int { output.count }

    /// Queues a line (with its newline) and writes what the socket takes now.
    func send(_ line: [UInt8]) {
        guard !isClosed else { return }
        if pendingOutput == 0 {
            let written = write(line, from: 0)
            guard written >= 0 else { return }
            if written == line.count { return }
            output.removeAll(keepingCapacity: true)
            outputStart = 0
            output.append(contentsOf: line[written...])
        } else {
            output.append(contentsOf: line)
        }
        if pendingOutput > outputLimit {
            droppedForNotReading = true
            close(because: "its unsent output passed \(outputLimit / 1024) KiB: a client that does not read")
            return
        }
        updateInterest()
    }

    /// Sends a last line if the socket takes it now, then closes (for `line-too-long`, `too-many-clients`).
    func sendAndClose(_ line: [UInt8], reason: String) {
        _ = write(line, from: 0)
        close(because: reason)
    }

    private func ready(_ events: IOEvents) {
        if events.contains(.writable) { drain() }
        guard !isClosed else { return }
        if !readClosed {
            if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) { receive() }
        } else if events.contains(.hangUp) || events.contains(.error) {
            close(because: "closed by the client")
        }
    }

    /// Reads what the socket has, into a buffer on the stack, and handles every complete line.
    private func receive() {
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer in
            while !isClosed {
                let count: Int
                do throws(Errno) {
                    count = try fd.read(into: buffer)
                } catch  where error == .wouldBlock {
                    return
                } catch {
                    close(because: "read failed: \(error)")
                    return
                }
                if count > 0 {
                    framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    processLines()
                    continue
                }
                // The client closed its sending side. Keep it while it wants events; a full
                // close shows as a hang-up next.
                readClosed = true
                if pendingOutput == 0 && !delegate.connectionStaysAfterReadClose(self) {
                    close(because: "closed by the client")
                } else {
                    updateInterest()
                }
                return
            }
        }
    }

    private func processLines() {
        while !isClosed {
            switch framer.nextLine() {
            case .line(let line):
                delegate.connection(self, received: line)
            case .tooLong:
                sendAndClose(
                    MessageEncoder.error(
                        id: nil,
                        ProtocolError(.lineTooLong, "a request line may be at most 4096 bytes; closing the connection")
                    ),
                    reason: "a request line over 4096 bytes"
                )
                return
            case .incomplete:
                return
            }
        }
    }

    private func drain() {
        while pendingOutput > 0 {
            let written = write(output, from: outputStart)
            guard written > 0 else { break }
            outputStart += written
        }
        if pendingOutput == 0 {
            output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            outputStart = 0
        } else if outputStart >= 64 * 1024 && outputStart >= pendingOutput {
            // A client that reads but never quite catches up: without this the queue would keep every byte sent
            // since it last caught up (megabytes), not just the unsent ones; now it holds at most about twice them.
            output.removeSubrange(0..<outputStart)
            outputStart = 0
        }
        updateInterest()
    }

    /// Writes `bytes[start...]`; the count written (0 if the socket is full), or -1 after closing on an error.
    private func write(_ bytes: [UInt8], from start: Int) -> Int {
        do throws(Errno) {
            return try fd.write(bytes, from: start, using: .send)
        } catch .wouldBlock {
            return 0
        } catch {
            close(because: "write failed: \(error)")
            return -1
        }
    }

    private func updateInterest() {
        guard let source, !isClosed else { return }
        var events: IOEvents = readClosed ? [] : .readable
        if pendingOutput > 0 { events.insert(.writable) }
        if source.events != events { source.events = events }
    }

    private func close(because reason: String) {
        guard !isClosed else { return }
        isClosed = true
        source = nil
        delegate.connectionClosed(self, reason: reason)
    }
}
