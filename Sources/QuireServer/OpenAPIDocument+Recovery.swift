/// The recovery-key parts of ``OpenAPIDocument`` (issue 12, item 11): their schemas and their
/// paths, as JSON fragments the document splices in.
extension OpenAPIDocument {
    static let recoverySchemas = #"""
              "RecoveryMaterial": {
                "type": "object", "required": ["authKey", "wrappedNotesKey"],
                "description": "What the server keeps of a recovery key; never the recovery key itself, which stays on paper with the person.",
                "properties": {
                  "authKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)", "description": "base64 of the 32-byte recovery auth key (HKDF-SHA256 of the recovery key, its own info string); stored only as a slow salted hash" },
                  "wrappedNotesKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)", "description": "base64 of the notes key sealed under the recovery wrapping key (another HKDF info string), 28 to 1024 bytes; opaque to the server" }
                }
              },
              "RecoveryWrappedKeyRequest": {
                "type": "object", "required": ["username", "recoveryAuthKey"],
                "properties": {
                  "username": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" },
                  "recoveryAuthKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)", "description": "base64 of the 32-byte recovery auth key" }
                }
              },
              "RecoveryWrappedKey": {
                "type": "object", "required": ["wrappedNotesKey"],
                "properties": { "wrappedNotesKey": { "type": "string", "format": "byte", "description": "the notes key's recovery copy, for the device to open with the recovery wrapping key" } }
              },
              "RecoverAccountRequest": {
                "type": "object", "required": ["username", "recoveryAuthKey", "newAuthKey", "kdf", "wrappedNotesKey", "deviceName"],
                "properties": {
                  "username": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" },
                  "recoveryAuthKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)", "description": "base64 of the 32-byte recovery auth key" },
                  "newAuthKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)", "description": "base64 of the 32-byte auth key derived from the new password" },
                  "kdf": { "$ref": "#/components/schemas/KDFParameters" },
                  "wrappedNotesKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)", "description": "the same notes key sealed under the new password's master key, 28 to 1024 bytes" },
                  "deviceName": { "type": "string", "maxLength": 200 }
                }
              },
              "SetRecoveryRequest": {
                "type": "object", "required": ["currentAuthKey", "recovery"],
                "properties": {
                  "currentAuthKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)", "description": "base64 of the current password's 32-byte auth key" },
                  "recovery": { "$ref": "#/components/schemas/RecoveryMaterial" }
                }
              },
        """#

    static let recoveryPaths = #"""
            "/v1/accounts/recovery/wrapped-notes-key": {
              "post": {
                "summary": "The notes key's recovery copy, for the right recovery auth key; changes nothing",
                "description": "An unknown username, an account without a recovery key and a wrong key all answer 401 invalid_credentials after the same work. Attempts count toward the sign-in throttle of the username and address.",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RecoveryWrappedKeyRequest" } } } },
                "responses": {
                  "200": { "description": "The recovery copy", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RecoveryWrappedKey" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Throttled" }
                }
              }
            },
            "/v1/accounts/recovery/password": {
              "post": {
                "summary": "Set a new password with the recovery key: every session of the account is signed out and this device gets a new one",
                "description": "Replaces the auth-key hash, kdf parameters and password-wrapped notes key in one transaction with the revocation; the recovery key keeps working (docs/security.md says why). 401 invalid_credentials and throttling as for the recovery copy.",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RecoverAccountRequest" } } } },
                "responses": {
                  "200": { "$ref": "#/components/responses/Session" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Throttled" }
                }
              }
            },
            "/v1/accounts/current/recovery": {
              "put": {
                "summary": "Make or replace the account's recovery key (the one before it stops working); needs the current password's auth key",
                "security": [{ "bearer": [] }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SetRecoveryRequest" } } } },
                "responses": {
                  "204": { "description": "Stored; sessions are untouched" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Throttled" }
                }
              }
            },
        """#
}
