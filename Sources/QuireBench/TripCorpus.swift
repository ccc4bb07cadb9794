import Foundation
import QuireTestSupport
import QuireTrips

/// The trip-sync benchmark's trip: a four-week journey (Lisbon, Porto, Madrid, Barcelona,
/// Paris, New York) with 20 items a day, each with a title, a kind, a start with its city's zone,
/// a location, an order key and, for most, an end and notes, made the same way every run
/// (seeded). Also the two devices' offline edits: 20 fields each, never the same field of an
/// item on both devices.
enum TripCorpus {
    static let title = "Iberia, Paris and New York, June 2027"
    static let itemsPerDay = 20
    static let editsPerDevice = 20
    /// The fields the edits change; device A takes `editedFields[j % 5]` of its j-th item and
    /// device B `editedFields[(j + 2) % 5]` of the same item.
    static let editedFields: [TripField] = [.title, .start, .location, .notes, .end]

    private struct City {
        var name: String
        var zone: String
        var days: Int
        var places: [String]
        var streets: [String]
    }

    private static let cities: [City] = [
        City(
            name: "Lisboa", zone: "Europe/Lisbon", days: 5,
            places: [
                "Time Out Market", "Castelo de São Jorge", "Mosteiro dos Jerónimos", "Cervejaria Ramiro",
                "LX Factory", "Miradouro da Senhora do Monte", "Pastéis de Belém", "Oceanário",
            ],
            streets: ["Av. 24 de Julho 49", "Rua de Santa Cruz do Castelo", "Praça do Império 1400-206"]),
        City(
            name: "Porto", zone: "Europe/Lisbon", days: 4,
            places: ["Livraria Lello", "Ribeira", "Caves Graham's", "Mercado do Bolhão", "Serralves", "Café Majestic"],
            streets: ["Rua das Carmelitas 144", "Cais da Ribeira", "Rua Formosa 214"]),
        City(
            name: "Madrid", zone: "Europe/Madrid", days: 5,
            places: [
                "Museo del Prado", "Mercado de San Miguel", "Palacio Real", "Retiro", "Sobrino de Botín",
                "Reina Sofía", "Chocolatería San Ginés",
            ],
            streets: ["Calle de Ruiz de Alarcón 23", "Plaza de San Miguel", "Calle de Cuchilleros 17"]),
        City(
            name: "Barcelona", zone: "Europe/Madrid", days: 4,
            places: ["Sagrada Família", "La Boqueria", "Park Güell", "Casa Batlló", "El Born", "Barceloneta"],
            streets: ["Carrer de Mallorca 401", "La Rambla 91", "Passeig de Gràcia 43"]),
        City(
            name: "Paris", zone: "Europe/Paris", days: 5,
            places: [
                "Musée d'Orsay", "Le Marais", "Sainte-Chapelle", "Montmartre", "Bouillon Chartier",
                "Jardin du Luxembourg", "Canal Saint-Martin",
            ],
            streets: ["1 Rue de la Légion d'Honneur", "7 Rue du Faubourg Montmartre", "10 Bd du Palais"]),
        City(
            name: "New York", zone: "America/New_York", days: 7,
            places: ["The Met", "High Line", "Katz's Delicatessen", "Brooklyn Bridge", "MoMA", "Central Park"],
            streets: ["1000 5th Ave", "205 E Houston St", "11 W 53rd St"]),
    ]

    private static let notes = [
        "Booked online; confirmation in the email from the 3rd. Bring the passports.",
        "Free on the first Sunday of the month. The queue is shorter after 15:00.",
        "Table for four by the window, if they can. Ask for the daily special.",
        "Tickets on the phone (Wallet). Arrive 20 minutes early for the security check.",
        "Check-in from 15:00; the key box code comes by SMS on the day. Late check-out asked for.",
        "Cash only. Closed on Mondays, so keep this one for a weekday.",
        "Audio guide worth it (2 h). Lockers for backpacks at the left of the entrance.",
    ]

    private static let kinds: [ItemKind] = [
        .meal, .activity, .activity, .transport, .activity, .meal, .activity, .activity, .activity, .meal,
    ]

    /// The `count` items' fields, in display order, with order keys `a0`, `a1`, … (as a
    /// rebalance or a run of appends makes them).
    static func items(_ count: Int) throws -> [[TripField: String]] {
        var random = SeededRandom(seed: 14)
        let keys = try OrderKey.keys(count: count, between: nil, and: nil)
        return (0..<count).map { index in
            let day = index / itemsPerDay
            let slot = index % itemsPerDay
            let city = city(onDay: day)
            let kind: ItemKind = slot == itemsPerDay - 1 ? .stay : kinds[slot % kinds.count]
            let place = city.places[(index * 7 + slot) % city.places.count]
            let minutes = 7 * 60 + slot * 40
            var values: [TripField: String] = [
                .title: title(kind, place), .kind: kind.rawValue,
                .start: time(day: day, minutes: minutes, zone: city.zone),
                .location: "\(place), \(city.streets[index % city.streets.count]), \(city.name)",
                .order: keys[index],
            ]
            if random.chance(0.7) {
                values[.end] = time(
                    day: day, minutes: minutes + 30 + Int.random(in: 0...5, using: &random) * 15, zone: city.zone)
            }
            if random.chance(0.6) { values[.notes] = notes[Int.random(in: 0..<notes.count, using: &random)] }
            return values
        }
    }

    /// One device's offline edits (`device` 0 for A, 1 for B): 20 items spread over the trip,
    /// the same items on both devices, a different field on each. Values replace the old ones.
    static func edits(device: Int, items: [[TripField: String]]) -> [(index: Int, field: TripField, value: String)] {
        (0..<editsPerDevice).map { j in
            let index = j * items.count / editsPerDevice + 3
            let field = editedFields[(j + device * 2) % editedFields.count]
            let old = items[index]
            let start = old[.start] ?? time(day: index / itemsPerDay, minutes: 9 * 60, zone: "Europe/Lisbon")
            let date = start.prefix(10)
            let zone = start.split(separator: " ").last.map(String.init) ?? "Europe/Lisbon"
            let value: String
            switch field {
            case .title: value = (old[.title] ?? "") + (device == 0 ? " (moved to the evening)" : " with Ana and Rui")
            case .start: value = "\(date)T\(device == 0 ? "18:30" : "08:15") \(zone)"
            case .end:
                // Two hours and seven minutes after the start: no end the corpus made is that.
                let hour = Int(start.dropFirst(11).prefix(2)) ?? 9
                let minute = Int(start.dropFirst(14).prefix(2)) ?? 0
                value =
                    device == 0
                    ? "\(date)T21:45 \(zone)"
                    : "\(date)T" + String(format: "%02d:%02d", min(hour + 2, 23), minute + 7) + " \(zone)"
            case .location: value = (old[.location] ?? "") + (device == 0 ? " (side entrance)" : ", 2nd floor")
            default:
                value =
                    "Changed on \(device == 0 ? "the phone" : "the laptop"): rebooked, the new confirmation "
                    + "is QX7H\(j); pay at the desk."
            }
            return (index, field, value)
        }
    }

    private static func city(onDay day: Int) -> City {
        var start = 0
        for city in cities {
            if day < start + city.days { return city }
            start += city.days
        }
        return cities[cities.count - 1]
    }

    private static func title(_ kind: ItemKind, _ place: String) -> String {
        switch kind {
        case .meal: "Lunch at \(place)"
        case .transport: "Taxi to \(place)"
        case .stay: "Hotel near \(place)"
        default: place
        }
    }

    /// `day` days after 1 June 2027, `minutes` after midnight, in `zone`: the `start` field's text.
    private static func time(day: Int, minutes: Int, zone: String) -> String {
        let (month, date) = day < 30 ? (6, day + 1) : (7, day - 29)
        return String(format: "2027-%02d-%02dT%02d:%02d", month, date, min(minutes / 60, 23), minutes % 60) + " " + zone
    }
}
