/// Byte counts as `quire` prints them for photos: megabytes (10⁶ bytes), whole from 10 MB, one
/// decimal below ("0.4 MB", "41 MB").
enum PhotoSizes {
    static func megabytes(_ bytes: Int64) -> String {
        let value = Double(bytes) / 1_000_000
        return value >= 10 ? "\(Int(value.rounded()))" : String(format: "%.1f", value)
    }

    /// "41 of 120 MB".
    static func progress(_ done: Int64, of total: Int64) -> String {
        "\(megabytes(done)) of \(megabytes(total)) MB"
    }
}
