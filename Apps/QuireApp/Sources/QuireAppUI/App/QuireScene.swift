import SwiftUI

/// The app's one window: the notes, the trips and the account, over one opened device. Syncs
/// when it comes back to the foreground, pushes what is left as it leaves, and pulls in the
/// background when iOS allows (BGAppRefreshTask).
public struct QuireScene: Scene {
    @State private var model = AppModel()
    @Environment(\.scenePhase) private var scenePhase

    public init() {}

    public var body: some Scene {
        WindowGroup {
            RootView(model: model)
        }
        .onChange(of: scenePhase) { _, phase in
            switch phase {
            case .active: model.enteredForeground()
            case .background: model.enteredBackground()
            default: break
            }
        }
        #if os(iOS)
            .backgroundTask(.appRefresh(BackgroundRefresh.identifier)) { [model] in
                await model.backgroundRefresh()
            }
        #endif
    }
}
