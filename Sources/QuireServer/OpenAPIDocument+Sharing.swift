/// The sharing parts of ``OpenAPIDocument`` (issue 15): their schemas and paths, as JSON
/// fragments the document splices in.
extension OpenAPIDocument {
    static let sharingSchemas = #"""
              "SharingKey": {
                "type": "object", "required": ["publicKey", "wrappedPrivateKey"],
                "properties": {
                  "publicKey": { "type": "string", "format": "byte", "pattern": "\#(publicKeyPattern)", "description": "base64 of the 32-byte X25519 public key" },
                  "wrappedPrivateKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)", "description": "base64 of the private key sealed with the notes key, 28 to 1024 bytes; opaque to the server" }
                }
              },
              "PublicSharingKey": {
                "type": "object", "required": ["username", "publicKey"],
                "properties": {
                  "username": { "type": "string" },
                  "publicKey": { "type": "string", "format": "byte" }
                }
              },
              "TripInviteRequest": {
                "type": "object", "required": ["username", "role", "sealedKey"],
                "properties": {
                  "username": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" },
                  "role": { "type": "string", "enum": ["editor", "viewer"] },
                  "sealedKey": { "type": "string", "format": "byte", "pattern": "\#(sealedKeyPattern)", "description": "base64 of the trip key sealed to the invitee's public key (version 1, ephemeral X25519 key, AES-256-GCM), 61 to 1024 bytes" },
                  "keyEpoch": { "type": "integer", "minimum": 1, "maximum": 10000, "default": 1, "description": "The epoch of the key sealed; not the trip's current one: 409 trip_key_rotated" }
                }
              },
              "TripInvite": {
                "type": "object", "required": ["id", "trip", "from", "fromPublicKey", "to", "role", "sealedKey"],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "trip": { "type": "string", "format": "uuid" },
                  "from": { "type": "string", "description": "The inviting owner's username" },
                  "fromPublicKey": { "type": "string", "format": "byte", "description": "Its public key, to compare fingerprints" },
                  "to": { "type": "string" },
                  "role": { "type": "string", "enum": ["owner", "editor", "viewer"] },
                  "sealedKey": { "type": "string", "format": "byte" },
                  "keyEpoch": { "type": "integer", "minimum": 2, "description": "The epoch of the key sealed; absent for 1" }
                }
              },
              "TripInvites": {
                "type": "object", "required": ["invites"],
                "properties": { "invites": { "type": "array", "items": { "$ref": "#/components/schemas/TripInvite" } } }
              },
              "AcceptInviteRequest": {
                "type": "object", "required": ["wrappedKey"],
                "properties": { "wrappedKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)", "description": "The trip key sealed with the accepting account's notes key, 28 to 1024 bytes" } }
              },
              "TripMember": {
                "type": "object", "required": ["username", "role", "publicKey"],
                "properties": {
                  "username": { "type": "string" },
                  "role": { "type": "string", "enum": ["owner", "editor", "viewer"] },
                  "publicKey": { "type": "string", "description": "base64 of the member's public key; empty when it has none" },
                  "entryRevision": { "type": "integer", "minimum": 1, "description": "The revision of the join that started the membership in the trip's log (the member.<username> entry, or the join a role change names); absent before the trip's members first changed" }
                }
              },
              "TripMembers": {
                "type": "object", "required": ["members"],
                "properties": { "members": { "type": "array", "items": { "$ref": "#/components/schemas/TripMember" } } }
              },
              "CreateTripLinkRequest": {
                "type": "object", "required": ["role", "sealedKey", "tokenHash"],
                "properties": {
                  "role": { "type": "string", "enum": ["editor", "viewer"] },
                  "sealedKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)", "description": "The trip key sealed with a key derived from the link's secret (which the server never gets), 28 to 1024 bytes" },
                  "tokenHash": { "type": "string", "pattern": "^[0-9a-f]{64}$", "description": "SHA-256 of the join token derived from the link's secret" },
                  "expiresInHours": { "type": "integer", "minimum": 1, "maximum": 720, "default": 168 },
                  "maxUses": { "type": "integer", "minimum": 1, "maximum": 100, "default": 1 },
                  "keyEpoch": { "type": "integer", "minimum": 1, "maximum": 10000, "default": 1, "description": "The epoch of the key sealed; not the trip's current one: 409 trip_key_rotated" }
                }
              },
              "TripLink": {
                "type": "object", "required": ["id", "trip", "role", "from", "sealedKey", "expiresAt", "usesLeft"],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "trip": { "type": "string", "format": "uuid" },
                  "role": { "type": "string", "enum": ["editor", "viewer"] },
                  "from": { "type": "string", "description": "The owner who made it" },
                  "sealedKey": { "type": "string", "format": "byte" },
                  "expiresAt": { "type": "string", "format": "date-time" },
                  "usesLeft": { "type": "integer", "minimum": 0 },
                  "keyEpoch": { "type": "integer", "minimum": 2, "description": "The epoch of the key sealed; absent for 1" }
                }
              },
              "TripLinkOpenRequest": {
                "type": "object", "required": ["token"],
                "properties": { "token": { "type": "string", "format": "byte", "pattern": "\#(joinTokenPattern)", "description": "base64 of the 32-byte join token" } }
              },
              "TripLinkJoinRequest": {
                "type": "object", "required": ["token", "wrappedKey"],
                "properties": {
                  "token": { "type": "string", "format": "byte", "pattern": "\#(joinTokenPattern)", "description": "base64 of the 32-byte join token" },
                  "wrappedKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)", "description": "To join: the trip key sealed with the joining account's notes key, 28 to 1024 bytes" }
                }
              },
              "TripRoleRequest": {
                "type": "object", "required": ["role"],
                "properties": { "role": { "type": "string", "enum": ["owner", "editor", "viewer"] } }
              },
        """#

    static let sharingPaths = #"""
            "/v1/accounts/current/sharing-key": {
              "put": {
                "summary": "Publish (or replace) this account's key pair for sharing trips",
                "security": [{ "bearer": [] }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SharingKey" } } } },
                "responses": {
                  "204": { "description": "Stored" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" }
                }
              },
              "get": {
                "summary": "This account's own key pair (the private half sealed), for a new device",
                "security": [{ "bearer": [] }],
                "responses": {
                  "200": { "description": "The key pair", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SharingKey" } } } },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/accounts/{username}/sharing-key": {
              "get": {
                "summary": "Another account's public key, to invite it",
                "security": [{ "bearer": [] }],
                "parameters": [{ "name": "username", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" } }],
                "responses": {
                  "200": { "description": "The public key", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PublicSharingKey" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}/invites": {
              "post": {
                "summary": "An owner invites an account by username (replacing an earlier invitation of it)",
                "description": "A viewer or editor gets 403 forbidden; a caller not a member 404; a removed member 403 removed_from_trip; an unknown username, or one with no published key, 404; a member 409 already_member.",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripInviteRequest" } } } },
                "responses": {
                  "201": { "description": "The invitation", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripInvite" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}/members": {
              "get": {
                "summary": "The trip's members, owners first, with their public keys",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }],
                "responses": {
                  "200": { "description": "The members", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripMembers" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}/members/{username}": {
              "put": {
                "summary": "An owner changes a member's role",
                "description": "409 last_owner when it would leave the trip without an owner.",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }, { "name": "username", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripRoleRequest" } } } },
                "responses": {
                  "204": { "description": "Changed; the member's trips feed shows the new role" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" }
                }
              },
              "delete": {
                "summary": "An owner removes a member, or a member leaves (its own username)",
                "description": "The member's next request on the trip is 403 removed_from_trip, and its trips feed shows the trip with removed true. 409 last_owner for the only owner.",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }, { "name": "username", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" } }],
                "responses": {
                  "204": { "description": "Removed" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}/links": {
              "post": {
                "summary": "An owner makes an invite link",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CreateTripLinkRequest" } } } },
                "responses": {
                  "201": { "description": "The link (its secret stays on the device)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripLink" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}/links/{link}": {
              "delete": {
                "summary": "An owner revokes an invite link",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }, { "name": "link", "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } }],
                "responses": {
                  "204": { "description": "Revoked" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/links/{link}/open": {
              "post": {
                "summary": "Read an invite link's sealed key with its join token; changes nothing",
                "description": "An expired, revoked or used-up link, a wrong token, and a link whose maker is no longer an owner all answer 404 link_unusable.",
                "security": [{ "bearer": [] }],
                "parameters": [{ "name": "link", "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripLinkOpenRequest" } } } },
                "responses": {
                  "200": { "description": "The link", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripLink" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/links/{link}/join": {
              "post": {
                "summary": "Join the link's trip with its role; spends one use (none for a member already)",
                "security": [{ "bearer": [] }],
                "parameters": [{ "name": "link", "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripLinkJoinRequest" } } } },
                "responses": {
                  "200": { "description": "The trip, as this account's feed shows it", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripEntry" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/invites": {
              "get": {
                "summary": "The invitations waiting for this account, oldest first",
                "security": [{ "bearer": [] }],
                "responses": {
                  "200": { "description": "The invitations", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripInvites" } } } },
                  "401": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/invites/{invite}/accept": {
              "post": {
                "summary": "Join the trip with the invited role, keeping the trip key wrapped with this account's notes key",
                "description": "404 for another account's invitation, one already answered, or one whose inviter is no longer an owner.",
                "security": [{ "bearer": [] }],
                "parameters": [{ "name": "invite", "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/AcceptInviteRequest" } } } },
                "responses": {
                  "200": { "description": "The trip, as this account's feed shows it", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripEntry" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/invites/{invite}/decline": {
              "post": {
                "summary": "Decline (delete) an invitation",
                "security": [{ "bearer": [] }],
                "parameters": [{ "name": "invite", "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } }],
                "responses": {
                  "204": { "description": "Declined" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
        """#
}
