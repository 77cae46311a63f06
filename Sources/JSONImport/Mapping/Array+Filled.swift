extension Array {
    /// An array of `count` copies of `value`, like `init(repeating:count:)`, allocated through the
    /// path the compiler specializes (`reserveCapacity`). `init(repeating:count:)` and
    /// `init(unsafeUninitializedCapacity:)` allocate through a generic library entry point that
    /// looks up the element type's metadata at run time on every call, about 500 instructions
    /// the import loop would pay for each record.
    @inline(__always)
    init(filledWith value: Element, count: Int) {
        self.init()
        reserveCapacity(count)
        for _ in 0..<count { append(value) }
    }
}
