import QuirePresentation

/// The notes view model's "sync soon" request, answered by the app's sync controller.
struct ControllerSyncRequester: SyncRequesting {
    let app: AppModel

    func requestSync() async {
        await app.requestSync()
    }
}
