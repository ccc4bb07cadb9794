import Foundation
import Testing

@testable import QuireServer

/// A note PUT's body as the server reads it: what clients send is read, and numbers JSON allows
/// but no version can be get a clear 400, never a crash (a hand-written reader once trapped on a
/// base version past Int.max and took the server down; found by schemathesis).
struct PutBodyValidationTests {
    @Test func theBodyClientsSendIsRead() throws {
        let body = try RequestValidation.putBody(
            Data(#"{"payload":"AQID","baseVersion":3,"baseVersionTag":"17"}"#.utf8))
        #expect(body.payload == "AQID")
        #expect(body.baseVersion == 3)
        #expect(body.baseVersionTag == "17")
    }

    @Test(arguments: [
        #"{"payload":"0","baseVersion":9223372036854775808,"baseVersionTag":"1"}"#,
        #"{"payload":"p","baseVersion":99999999999999999999999999999999999999999}"#,
        #"{"payload":"p","baseVersion":-1}"#,
        #"{"payload":"p","baseVersion":1.5}"#,
    ])
    func aBaseVersionNoNoteCanHaveIsRefused(_ body: String) {
        #expect(throws: APIError.self) { try RequestValidation.putBody(Data(body.utf8)) }
    }
}
