import Foundation

/// The lexical rules of RFC 5545 the writer needs: TEXT escaping (§3.3.11), parameter values
/// (§3.2), line folding at 75 octets (§3.1), and DATE-TIME and UTC-OFFSET values.
enum ICalendarText {
    /// A TEXT value: backslash, semicolon and comma escaped, every line break as `\n`, and the
    /// control characters TEXT cannot hold (all but tab) dropped.
    static func text(_ value: String) -> String {
        var out = ""
        var previousWasCR = false
        for scalar in value.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousWasCR { out += "\\n" }
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A parameter value: as is when it can be, else quoted; double quotes and control
    /// characters, which no parameter value can hold, dropped.
    static func parameter(_ value: String) -> String {
        let kept = String(value.unicodeScalars.filter { $0 != "\"" && $0.value >= 0x20 && $0.value != 0x7f })
        return kept.contains(where: { ";:,".contains($0) }) ? "\"\(kept)\"" : kept
    }

    /// A content line folded to at most 75 octets a line (continuations start with a space),
    /// never inside a UTF-8 sequence, ending in CRLF.
    static func folded(_ line: String) -> String {
        let bytes = Array(line.utf8)
        var out: [UInt8] = []
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var end = start + limit
            // Back off to the start of a character: continuation bytes are 0b10xxxxxx.
            while end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if end == start { end = start + limit }
            out += bytes[start..<end]
            out += Array("\r\n ".utf8)
            start = end
            limit = 74
        }
        out += bytes[start...]
        out += Array("\r\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// `YYYYMMDDTHHMMSS`: a local DATE-TIME (floating or with a TZID).
    static func dateTime(_ local: LocalDateTime) -> String {
        let d = local.date
        return LocalDate.pad(d.year, 4) + LocalDate.pad(d.month, 2) + LocalDate.pad(d.day, 2) + "T"
            + LocalDate.pad(local.hour, 2) + LocalDate.pad(local.minute, 2) + "00"
    }

    /// `YYYYMMDDTHHMMSSZ`: a UTC DATE-TIME, to the second.
    static func utc(_ instant: Date) -> String {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = LocalDateTime.civil(fromDays: days)
        return LocalDate.pad(y, 4) + LocalDate.pad(m, 2) + LocalDate.pad(d, 2) + "T"
            + LocalDate.pad(secondOfDay / 3_600, 2) + LocalDate.pad(secondOfDay % 3_600 / 60, 2)
            + LocalDate.pad(secondOfDay % 60, 2) + "Z"
    }

    /// A UTC-OFFSET: `+0100`, `-0430`, and seconds only when there are some (`-003645`).
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        let base = sign + LocalDate.pad(magnitude / 3_600, 2) + LocalDate.pad(magnitude % 3_600 / 60, 2)
        return magnitude % 60 == 0 ? base : base + LocalDate.pad(magnitude % 60, 2)
    }

    /// A TZNAME in the style of tzdata's numeric abbreviations (`+01`, `-0430`). Foundation on
    /// Linux names zones by today's rules (it calls Samoa "GMT+13" for 2011, when it was UTC-11),
    /// so the name is made from the offset itself.
    static func offsetName(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        let hours = LocalDate.pad(magnitude / 3_600, 2)
        let minutes = magnitude % 3_600 / 60
        return minutes == 0 ? sign + hours : sign + hours + LocalDate.pad(minutes, 2)
    }
}
