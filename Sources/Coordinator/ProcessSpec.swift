import Topology
import Wire

/// One process of a run: its name, the `ribcity` subcommand and arguments that start it, and
/// what the coordinator does when it exits.
public struct ProcessSpec: Sendable, Equatable {
    /// What to do when the process exits before the run ends.
    public enum Restart: Sendable, Equatable {
        /// Not restarted: its exit ends the run (dispatch without a journal: it holds the run's state).
        case never
        /// Restarted with exponential backoff (250 ms doubling with each recent restart), at most
        /// `limit` times within any `window` of wall time.
        case withBackoff(limit: Int, window: Duration)

        /// Every restartable process of a run: at most five restarts within any minute.
        public static let supervised = Restart.withBackoff(limit: 5, window: .seconds(60))
    }

    /// `dispatch`, `drivers-0`, `riders-1`, `monitor`, `recorder`: also the name of its log, and
    /// the process id it announces itself with on the bus.
    public var name: String
    /// What it is in the run.
    public var role: Role
    /// The program, when it is not `ribcity` itself (the recorder).
    public var executable: String?
    public var arguments: [String]
    public var restart: Restart
    /// A rider process whose clean exit means its rides have all ended.
    public var finishesRun: Bool
    /// Arguments added when the process is restarted, given the simulated time (a restarted rider
    /// process leaves out the rides its previous run asked for).
    public var restartArguments: @Sendable (_ simulatedTime: Double) -> [String]
    /// Stopped only once the run's summary is written (the web monitor shows it to its pages).
    public var outlivesRun = false
    /// The host it runs on when that is not the coordinator's (a city across hosts): started
    /// there, it joins the run over the bus.
    public var host: Topology.Host?

    public init(
        name: String, role: Role, executable: String? = nil, arguments: [String], restart: Restart, finishesRun: Bool = false,
        outlivesRun: Bool = false, restartArguments: @escaping @Sendable (Double) -> [String] = { _ in [] }
    ) {
        self.outlivesRun = outlivesRun
        self.name = name
        self.role = role
        self.executable = executable
        self.arguments = arguments
        self.restart = restart
        self.finishesRun = finishesRun
        self.restartArguments = restartArguments
    }

    /// A driver or rider process: the ones stress mode kills at random.
    public var hostsApps: Bool { role == .drivers || role == .riders }

    /// Dispatch, a driver or a rider process: the ones that take part in virtual time.
    public var participates: Bool { role == .dispatch || hostsApps }

    public static func == (lhs: ProcessSpec, rhs: ProcessSpec) -> Bool {
        lhs.name == rhs.name && lhs.role == rhs.role && lhs.executable == rhs.executable && lhs.arguments == rhs.arguments
            && lhs.restart == rhs.restart && lhs.finishesRun == rhs.finishesRun && lhs.host == rhs.host
    }
}
