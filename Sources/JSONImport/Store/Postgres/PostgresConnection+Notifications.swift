internal import CLibPQ
import Foundation

/// A `NOTIFY` another session sent on a channel this connection listens to.
struct PostgresNotification: Sendable, Hashable {
    var channel: String
    var payload: String
    /// The server process of the session that sent it.
    var senderProcessID: Int32
}

/// Notifications (`LISTEN` / `NOTIFY`): how one session learns that another committed, without
/// polling the store.
extension PostgresConnection {
    /// Starts listening to `channel`; notifications sent on it from now on are kept until
    /// ``nextNotification(timeout:)`` hands them out. Inside a transaction, listening starts
    /// when it commits.
    func listen(_ channel: String) throws(StoreError) {
        try execute("LISTEN \(quote(channel))")
    }

    /// Stops listening to `channel`.
    func unlisten(_ channel: String) throws(StoreError) {
        try execute("UNLISTEN \(quote(channel))")
    }

    /// Sends a notification on `channel`; listeners receive it when the sender's transaction
    /// commits (at once outside a transaction).
    func notify(_ channel: String, payload: String = "") throws(StoreError) {
        try run("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// The next notification received, waiting up to `timeout` seconds for one; `nil` when none
    /// came in that time. Notifications arrive between transactions, so a wait inside an open
    /// transaction sees only those that came before it.
    ///
    /// - Throws: ``StoreError`` `cannotOpen` when the connection is lost while waiting.
    func nextNotification(timeout: Double) throws(StoreError) -> PostgresNotification? {
        // At most a day at a time: a caller that waits longer calls again.
        let seconds = timeout > 0 ? min(timeout, 86_400) : 0
        let deadline = ContinuousClock.now + .milliseconds(Int64((seconds * 1000).rounded(.up)))
        while true {
            guard PQconsumeInput(handle) == 1 else { throw error(nil, sql: nil) }
            if let notification = PQnotifies(handle) {
                defer { PQfreemem(notification) }
                return PostgresNotification(
                    channel: String(cString: notification.pointee.relname),
                    payload: String(cString: notification.pointee.extra),
                    senderProcessID: notification.pointee.be_pid)
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            if poll(&socket, 1, Int32(min(milliseconds + 1, Int64(Int32.max)))) < 0, errno != EINTR {
                throw StoreError(.cannotOpen, "store '\(name)': connection lost: \(String(cString: strerror(errno)))")
            }
        }
    }
}
