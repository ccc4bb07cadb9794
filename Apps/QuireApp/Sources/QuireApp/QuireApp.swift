import QuireAppUI
import SwiftUI

@main
struct QuireApp: App {
    var body: some Scene {
        QuireScene()
    }
}
