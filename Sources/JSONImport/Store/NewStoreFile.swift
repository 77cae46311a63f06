import Foundation

/// A store being created: built under a temporary name beside its path (`PATH.new`) and moved
/// into place only once complete, so that a first import that fails leaves no file behind and
/// no other process ever opens a store that is still being built.
///
/// Processes creating the same store take turns through a lock on its folder, held from the
/// moment the path is found missing until the store is in place or gone. A creator killed
/// midway leaves its `PATH.new` files; the next one removes them.
///
/// Not `Sendable`: one creator owns it.
final class NewStoreFile {
    /// Where the store goes.
    let path: String
    /// Where it is built.
    let temporaryPath: String
    /// The folder, locked (`flock`) until this is released.
    private let folder: Int32

    /// Takes the lock on the folder of `path`, waiting up to `timeout` seconds for another
    /// creator, and makes an empty file to build the store in.
    ///
    /// - Returns: `nil` when the store exists by the time the lock is taken, or when the folder
    ///   cannot be opened (opening the store then reports why).
    /// - Throws: ``StoreError`` `busy` past the timeout; `readOnly`, `full` or `cannotOpen` when
    ///   the file cannot be made.
    static func claim(_ path: String, timeout: Double) throws(StoreError) -> NewStoreFile? {
        let folderPath = (path as NSString).deletingLastPathComponent
        let folder = open(folderPath.isEmpty ? "." : folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        var waited = 0.0
        while flock(folder, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(folder)
                return nil
            }
            guard waited < timeout else {
                close(folder)
                throw StoreError(
                    .busy, "store '\(path)' is still being created by another process after the busy timeout (\(String(format: "%g", timeout)) s)")
            }
            usleep(10_000)
            waited += 0.01
        }
        let creation = NewStoreFile(path: path, folder: folder)
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        creation.removeTemporaryFiles()
        try creation.makeEmptyFile()
        return creation
    }

    private init(path: String, folder: Int32) {
        self.path = path
        self.temporaryPath = path + ".new"
        self.folder = folder
    }

    deinit { close(folder) }

    /// Where the store is opened while it is built: the temporary file, named as `path` in
    /// messages.
    var location: Store.Location { Store.Location(path: temporaryPath, create: true, name: path) }

    /// Moves the finished store into place. Its connections must be closed and its WAL
    /// checkpointed into it, since the WAL is named after the temporary file.
    func publish() throws(StoreError) {
        let wal = temporaryPath + "-wal"
        if let size = try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int, size > 0 {
            throw StoreError(.ioError, "store '\(path)': its write-ahead log could not be written back into it")
        }
        // link(2) refuses to replace a store some other program created meanwhile.
        if link(temporaryPath, path) != 0 {
            let error = errno
            guard error != EEXIST else {
                throw StoreError(.cannotOpen, "store '\(path)' was created by another program during the import, which is not kept")
            }
            // A file system without hard links: this process holds the lock, so it renames.
            guard !FileManager.default.fileExists(atPath: path), rename(temporaryPath, path) == 0 else {
                throw StoreError(.cannotOpen, "cannot create store '\(path)': \(String(cString: strerror(error)))")
            }
        }
        removeTemporaryFiles()
    }

    /// Removes the store being built, with its journal files.
    func discard() { removeTemporaryFiles() }

    private func removeTemporaryFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporaryPath + suffix) }
    }

    private func makeEmptyFile() throws(StoreError) {
        let file = open(temporaryPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard file < 0 else {
            close(file)
            return
        }
        let error = errno
        switch error {
        case EROFS: throw .cannotWrite(.readOnly, store: path)
        case ENOSPC, EDQUOT: throw .cannotWrite(.full, store: path)
        default: throw StoreError(.cannotOpen, "cannot create store '\(path)': \(String(cString: strerror(error)))")
        }
    }
}
