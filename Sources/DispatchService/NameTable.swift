/// A two-way table between the names one kind of id has on the wire ("req-17", "d-3") and the
/// engine's ids. Ids are given out from a counter that never goes back, so a name once given an id
/// keeps it and no two names ever share one.
struct NameTable<ID: Hashable> {
    private var ids: [String: ID] = [:]
    private var names: [ID: String] = [:]
    private var issued = 0
    private let makeID: (Int) -> ID

    /// `makeID` turns the counter (1, 2, 3, …) into an id.
    init(_ makeID: @escaping (Int) -> ID) { self.makeID = makeID }

    /// How many names have been given ids.
    var count: Int { issued }

    subscript(name: String) -> ID? { ids[name] }

    func name(of id: ID) -> String? { names[id] }

    /// The id the next new name will be given.
    var nextID: ID { makeID(issued + 1) }

    /// The id of `name`, given it a new one if it has none yet.
    mutating func id(for name: String) -> ID {
        if let id = ids[name] { return id }
        issued += 1
        let id = makeID(issued)
        assert(names[id] == nil, "NameTable: id \(id) given out twice")
        ids[name] = id
        names[id] = name
        return id
    }
}

extension NameTable where ID: Codable {
    /// The names given out so far: what a snapshot keeps (the way ids are made is the table's).
    struct State: Codable {
        var ids: [String: ID]
        var issued: Int
    }

    var state: State { State(ids: ids, issued: issued) }

    mutating func restore(_ state: State) {
        ids = state.ids
        names = Dictionary(uniqueKeysWithValues: state.ids.map { ($1, $0) })
        issued = state.issued
    }
}

extension NameTable.State: Sendable where ID: Sendable {}
