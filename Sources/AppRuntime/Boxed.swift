/// A value kept on the heap, for a large model (a protobuf message) on a stream that is empty
/// most of the time: an empty stream of `Boxed<M>?` holds one word instead of a whole `M`.
public final class Boxed<Value> {
    public let value: Value

    public init(_ value: Value) { self.value = value }
}
