/// Solves small dense linear systems `A x = b` (Gaussian elimination with partial pivoting) —
/// the normal equations of a calibration fit, a dozen unknowns at most.
enum LinearSolver {
    /// `x` with `a x = b`, or `nil` when `a` is singular.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        let n = b.count
        precondition(a.count == n && a.allSatisfy { $0.count == n }, "a square system")
        var m = a
        var v = b
        for column in 0..<n {
            let pivot = (column..<n).max { abs(m[$0][column]) < abs(m[$1][column]) }!
            guard abs(m[pivot][column]) > 1e-12 else { return nil }
            m.swapAt(column, pivot)
            v.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = m[row][column] / m[column][column]
                guard factor != 0 else { continue }
                for k in column..<n { m[row][k] -= factor * m[column][k] }
                v[row] -= factor * v[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = v[row]
            for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
            x[row] = sum / m[row][row]
        }
        return x
    }
}

/// Weighted least squares with a ridge towards a prior: minimises
/// `Σ wᵢ (xᵢ·θ − yᵢ)² + Σ λⱼ (θⱼ − priorⱼ)²`.
struct RidgeRegression {
    private var normal: [[Double]]
    private var right: [Double]

    init(unknowns: Int) {
        normal = [[Double]](repeating: [Double](repeating: 0, count: unknowns), count: unknowns)
        right = [Double](repeating: 0, count: unknowns)
    }

    mutating func add(_ x: [Double], _ y: Double, weight: Double = 1) {
        for i in x.indices where x[i] != 0 {
            right[i] += weight * x[i] * y
            for j in x.indices where x[j] != 0 { normal[i][j] += weight * x[i] * x[j] }
        }
    }

    /// The fitted coefficients, pulled towards `prior` with strengths `ridge`.
    func solve(prior: [Double], ridge: [Double]) -> [Double]? {
        var a = normal
        var b = right
        for i in b.indices {
            a[i][i] += ridge[i]
            b[i] += ridge[i] * prior[i]
        }
        return LinearSolver.solve(a, b)
    }
}
