/// The key-rotation parts of ``OpenAPIDocument`` (issue 15): their schemas and paths, as JSON
/// fragments the document splices in.
extension OpenAPIDocument {
    static let tripKeySchemas = #"""
              "TripKeyLink": {
                "type": "object", "required": ["epoch", "previousKey"],
                "properties": {
                  "epoch": { "type": "integer", "minimum": 2 },
                  "previousKey": { "type": "string", "format": "byte", "description": "The key of epoch - 1 sealed with the key of epoch (AES-256-GCM)" }
                }
              },
              "TripKeyInvitee": {
                "type": "object", "required": ["invite", "username", "publicKey"],
                "properties": {
                  "invite": { "type": "string", "format": "uuid" },
                  "username": { "type": "string" },
                  "publicKey": { "type": "string", "description": "base64 of the invitee's public key" }
                }
              },
              "TripKeys": {
                "type": "object", "required": ["epoch", "chain", "members", "invites", "rekeyDue"],
                "properties": {
                  "epoch": { "type": "integer", "minimum": 1, "description": "The trip's current key epoch" },
                  "chain": { "type": "array", "items": { "$ref": "#/components/schemas/TripKeyLink" }, "description": "Oldest first" },
                  "members": { "type": "array", "items": { "$ref": "#/components/schemas/TripMember" } },
                  "invites": { "type": "array", "items": { "$ref": "#/components/schemas/TripKeyInvitee" }, "description": "Pending invitations; for owners only, empty for others" },
                  "rekeyDue": { "type": "boolean", "description": "A member left or was removed since the key last rotated" }
                }
              },
              "TripWrappedKey": {
                "type": "object", "required": ["username", "sealedKey"],
                "properties": {
                  "username": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" },
                  "invite": { "type": "string", "format": "uuid", "description": "For an invitation: its id (in invites only)" },
                  "sealedKey": { "type": "string", "format": "byte", "pattern": "\#(sealedKeyPattern)", "description": "The new key sealed to their public key, 61 to 1024 bytes" }
                }
              },
              "RotateTripKeyRequest": {
                "type": "object", "required": ["epoch", "previousKey", "members", "invites"],
                "properties": {
                  "epoch": { "type": "integer", "minimum": 2, "maximum": 10000, "description": "The current epoch plus one" },
                  "previousKey": { "type": "string", "format": "byte", "pattern": "\#(chainedKeyPattern)", "description": "The current key sealed with the new one, 60 to 1024 bytes" },
                  "members": { "type": "array", "minItems": 1, "maxItems": 1000, "items": { "$ref": "#/components/schemas/TripWrappedKey" }, "description": "Exactly the members left after the removals, the caller included" },
                  "invites": { "type": "array", "maxItems": 1000, "items": { "$ref": "#/components/schemas/TripWrappedKey" }, "description": "Exactly the pending invitations" },
                  "remove": { "type": "array", "maxItems": 1000, "items": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" }, "description": "Members to remove in the same transaction (not the caller)" },
                  "keyCheck": { "type": "string", "pattern": "^[A-Za-z0-9_-]{22}$", "description": "The new key's check: ops requests sealed with another key of this epoch are refused (409 trip_key_rotated)" }
                }
              },
              "TripKeyRotated": {
                "type": "object", "required": ["epoch"],
                "properties": { "epoch": { "type": "integer", "minimum": 2 } }
              },
        """#

    static let tripKeyPaths = #"""
            "/v1/trips/{id}/keys": {
              "get": {
                "summary": "The trip's key epoch and key chain, its members' public keys, and (for owners) its pending invitations",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }],
                "responses": {
                  "200": { "description": "The keys", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripKeys" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              },
              "post": {
                "summary": "An owner rotates the trip's key, removing members in the same transaction",
                "description": "409 trip_key_rotated when epoch is not the current one plus one; 409 members_changed when members and invites are not exactly the trip's; 404 for a username in remove that is not a member or is the caller. Open invite links are revoked.",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RotateTripKeyRequest" } } } },
                "responses": {
                  "200": { "description": "Rotated", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripKeyRotated" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" }
                }
              }
            },
        """#
}
