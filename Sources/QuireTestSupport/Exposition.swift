import Foundation

/// A strict reader of the Prometheus text exposition format 0.0.4, enough to check what
/// `/metrics` serves: every line is a `# HELP`, a `# TYPE` or a sample of a declared family,
/// label values use only the three escapes, values are floats, no series appears twice, and the
/// text ends with a line feed. The metrics tests check the server's text with it; the
/// end-to-end tests read each instance's counters with it.
public struct Exposition {
    public struct Sample: Equatable, Sendable {
        public let name: String
        public let labels: [String: String]
        public let value: Double
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public private(set) var samples: [Sample] = []
    public private(set) var types: [String: String] = [:]

    public init(parsing text: String) throws {
        guard text.hasSuffix("\n") else { throw Invalid(line: 0, reason: "no final line feed") }
        var seen: Set<String> = []
        for (index, line) in text.dropLast().split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .enumerated() {
            let number = index + 1
            guard !line.isEmpty else { throw Invalid(line: number, reason: "empty line") }
            if line.hasPrefix("#") {
                try readComment(String(line), number)
                continue
            }
            let sample = try Self.sample(String(line), number)
            guard let type = types[Self.family(of: sample.name, types: types)] else {
                throw Invalid(line: number, reason: "\(sample.name) has no # TYPE before it")
            }
            if type == "histogram", sample.name.hasSuffix("_bucket"), sample.labels["le"] == nil {
                throw Invalid(line: number, reason: "bucket without le")
            }
            let identity = sample.name + sample.labels.sorted { $0.key < $1.key }.description
            guard seen.insert(identity).inserted else {
                throw Invalid(line: number, reason: "series appears twice")
            }
            samples.append(sample)
        }
    }

    /// The value of the one sample named `name` whose labels include `labels`, or nil.
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matches = samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
        return matches.count == 1 ? matches[0].value : nil
    }

    /// Every sample named `name` whose labels include `labels`.
    public func all(_ name: String, _ labels: [String: String] = [:]) -> [Sample] {
        samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
    }

    // MARK: - Lines

    private mutating func readComment(_ line: String, _ number: Int) throws {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "#", parts[1] == "HELP" || parts[1] == "TYPE" else {
            return  // Other comments are allowed and ignored.
        }
        let name = String(parts[2])
        guard Self.isMetricName(name) else { throw Invalid(line: number, reason: "bad name") }
        guard parts[1] == "TYPE" else { return }
        let type = parts.count == 4 ? String(parts[3]) : ""
        guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(type) else {
            throw Invalid(line: number, reason: "unknown type \(type)")
        }
        guard types[name] == nil else {
            throw Invalid(line: number, reason: "# TYPE \(name) repeated")
        }
        types[name] = type
    }

    private static func sample(_ line: String, _ number: Int) throws -> Sample {
        var rest = Substring(line)
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        guard isMetricName(name) else { throw Invalid(line: number, reason: "bad metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                guard isLabelName(label), rest.dropFirst(label.count).hasPrefix("=\"") else {
                    throw Invalid(line: number, reason: "bad label near \(rest)")
                }
                rest = rest.dropFirst(label.count + 2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    guard character == "\\" else {
                        value.append(character)
                        continue
                    }
                    switch rest.first {
                    case "\\": value.append("\\")
                    case "\"": value.append("\"")
                    case "n": value.append("\n")
                    default: throw Invalid(line: number, reason: "bad escape")
                    }
                    rest = rest.dropFirst()
                }
                guard rest.first == "\"", labels[label] == nil else {
                    throw Invalid(line: number, reason: "unterminated or repeated label")
                }
                labels[label] = value
                rest = rest.dropFirst()
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " ", let value = float(rest.dropFirst()) else {
            throw Invalid(line: number, reason: "bad value in \(line)")
        }
        return Sample(name: name, labels: labels, value: value)
    }

    private static func float(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: text.contains(" ") ? nil : Double(text)
        }
    }

    /// The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` belong to it.
    private static func family(of name: String, types: [String: String]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" || types[base] == "summary" { return base }
        }
        return name
    }

    private static func isMetricName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" || first == ":"
        else { return false }
        return name.allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":")
        }
    }

    private static func isLabelName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else {
            return false
        }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
