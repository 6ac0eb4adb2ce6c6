import ArgumentParser
import OrientClient
import OrientProtocol

/// `orientctl unlock`.
struct Unlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove the lock, and print the new state line.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let connection = try global.connect()
        defer { connection.close() }
        let reply = try await connection.request(.unlock, returning: OrientationState.self)
        Printer(json: global.json).state(reply.value, json: reply.json(at: "result"))
    }
}
