/// Order statistics for the delay tables.
struct Percentiles {
    let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var isEmpty: Bool { sorted.isEmpty }

    /// Nearest-rank percentile, p in [0, 1].
    func at(_ p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }

    var median: Double? { at(0.5) }
    var p95: Double? { at(0.95) }
    var worst: Double? { sorted.last }
}
