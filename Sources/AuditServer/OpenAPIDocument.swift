/// The OpenAPI 3 document of the API, served at /openapi.yaml. Keep it in step with the
/// routes: a test holds the router's route table against its paths and methods.
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.0.3
info:
  title: AuditStation API
  version: "1.0"
  description: |
    The audit API that `audit-station serve` runs and connected stations use. JSON bodies
    use snake_case. Success: {"success": true, "data": ..., "message": "..."}. Failure:
    {"success": false, "error": "CODE", "message": "...", "errors": {"field": ["..."]}}.
    Every /api call except login needs `Authorization: Bearer <JWT>` (30 days), and
    `X-API-Key` when the server is started with one. Bodies are limited to 64 KiB
    (64 MiB for an import); larger bodies get 400 BODY_TOO_LARGE.
servers:
  - url: http://127.0.0.1:8080
security:
  - bearer: []
paths:
  /health:
    get:
      summary: Liveness check
      security: []
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
  /openapi.yaml:
    get:
      summary: This document
      security: []
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200":
          description: The OpenAPI document
          content:
            application/yaml: {schema: {type: string}}
  /api/v1/auth/login:
    post:
      summary: Log in with email and password; returns a JWT valid for 30 days
      security: []
      requestBody: {$ref: "#/components/requestBodies/Login"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v1/auth/logout:
    post:
      summary: Revoke the token of this request
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
  /api/v1/auth/me:
    get:
      summary: The signed-in user
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
  /api/v1/audit/status:
    get:
      summary: The running audit (of a country) and every running audit the user may see
      parameters:
        - {name: country, in: query, schema: {type: string}}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v1/audit/countries:
    get:
      summary: Countries the user may audit, with expected asset counts
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
  /api/v1/audit/start:
    post:
      summary: Start the audit of a country
      requestBody: {$ref: "#/components/requestBodies/Start"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "201": {$ref: "#/components/responses/Ok"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "409": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v1/audit/scan:
    post:
      summary: Record a scan; a repeated scan_id is the same scan
      requestBody: {$ref: "#/components/requestBodies/Scan"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "409": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v1/audit/scans:
    post:
      summary: Record up to 500 scans in one call; one answer each, in order, with the same idempotency as /scan
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [scans]
              properties:
                scans:
                  type: array
                  maxItems: 500
                  items: {$ref: "#/components/schemas/ScanInput"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v1/audit/end:
    post:
      summary: End an audit; later scans are refused
      requestBody: {$ref: "#/components/requestBodies/End"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "409": {$ref: "#/components/responses/Error"}
  /api/v1/audit/details/{list}:
    get:
      summary: A page of an audit's assets
      parameters:
        - {name: list, in: path, required: true, schema: {type: string, enum: [all, scanned, missing, unexpected]}}
        - {name: audit_id, in: query, schema: {type: string}}
        - {name: country, in: query, schema: {type: string}}
        - {$ref: "#/components/parameters/Search"}
        - {$ref: "#/components/parameters/Page"}
        - {$ref: "#/components/parameters/PerPage"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /api/v1/audit/history:
    get:
      summary: Past and running audits, newest first
      parameters:
        - {name: country, in: query, schema: {type: string}}
        - {$ref: "#/components/parameters/Page"}
        - {$ref: "#/components/parameters/PerPage"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
  /api/v1/audit/{audit_id}:
    get:
      summary: One audit
      parameters:
        - {$ref: "#/components/parameters/AuditID"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /api/v1/audit/{audit_id}/scans:
    get:
      summary: The audit's scan trail in the order stored, a page at a time (who, when, where, source, outcome)
      parameters:
        - {name: audit_id, in: path, required: true, schema: {type: string}}
        - {$ref: "#/components/parameters/Search"}
        - {$ref: "#/components/parameters/Page"}
        - {$ref: "#/components/parameters/PerPage"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v1/audit/{audit_id}/report:
    get:
      summary: The report (CSV as text/csv, or the JSON document); not wrapped in the envelope
      parameters:
        - {$ref: "#/components/parameters/AuditID"}
        - {name: format, in: query, schema: {type: string, enum: [json, csv]}}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200":
          description: The report
          content:
            text/csv: {schema: {type: string}}
            application/json: {schema: {type: object}}
        "401": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v1/audit/{audit_id}/snapshot:
    get:
      summary: Everything a station needs to decide scans locally (expected set, first scans, unexpected entries, other known assets)
      parameters:
        - {$ref: "#/components/parameters/AuditID"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /api/v1/devices:
    get:
      summary: The devices users log in from, with their last activity and scans (an admin sees every user's)
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
  /api/v1/devices/register-push-token:
    post:
      summary: Register a device's push token
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [token, device_name]
              properties:
                token: {type: string, minLength: 1, maxLength: 4096}
                platform: {type: string, enum: [ios, android, web, linux]}
                device_name: {type: string, minLength: 1}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/assets:
    get:
      summary: A page of assets
      parameters:
        - {$ref: "#/components/parameters/Search"}
        - {name: status, in: query, schema: {type: string}}
        - {name: country, in: query, schema: {type: string}}
        - {name: customer_id, in: query, schema: {type: integer}}
        - {$ref: "#/components/parameters/Page"}
        - {$ref: "#/components/parameters/PerPage"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
    post:
      summary: Create an asset (needs can_edit_assets)
      requestBody: {$ref: "#/components/requestBodies/Object"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "201": {$ref: "#/components/responses/Ok"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "409": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/assets/find:
    get:
      summary: The asset whose tag, or else serial number, is the identifier (data is null when none)
      parameters:
        - {name: identifier, in: query, required: true, schema: {type: string}}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/assets/import:
    post:
      summary: Import rows of assets, all or none (needs can_edit_assets)
      requestBody: {$ref: "#/components/requestBodies/Object"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/assets/{id}:
    parameters:
      - {$ref: "#/components/parameters/ID"}
    get:
      summary: One asset
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
    put:
      summary: Edit an asset (needs can_edit_assets)
      requestBody: {$ref: "#/components/requestBodies/Object"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "409": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
    delete:
      summary: Archive (default) or delete an asset (needs can_edit_assets)
      parameters:
        - {name: mode, in: query, schema: {type: string, enum: [archive, delete]}}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /api/v2/assets/{id}/transfer:
    post:
      summary: Transfer an asset to a customer (needs can_edit_assets)
      parameters:
        - {$ref: "#/components/parameters/ID"}
      requestBody: {$ref: "#/components/requestBodies/Object"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/accessories:
    get:
      summary: A page of accessories
      parameters:
        - {$ref: "#/components/parameters/Search"}
        - {$ref: "#/components/parameters/Page"}
        - {$ref: "#/components/parameters/PerPage"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
    post:
      summary: Create an accessory (needs can_edit_assets)
      requestBody: {$ref: "#/components/requestBodies/Object"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "201": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
        "403": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/accessories/{id}:
    parameters:
      - {$ref: "#/components/parameters/ID"}
    get:
      summary: One accessory
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "404": {$ref: "#/components/responses/Error"}
    put:
      summary: Edit an accessory (needs can_edit_assets)
      requestBody: {$ref: "#/components/requestBodies/Object"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
    delete:
      summary: Delete an accessory; 409 while any are checked out
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "409": {$ref: "#/components/responses/Error"}
  /api/v2/accessories/{id}/checkout:
    post:
      summary: Check accessories out to a customer, no more than available
      parameters:
        - {$ref: "#/components/parameters/ID"}
      requestBody: {$ref: "#/components/requestBodies/Movement"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/accessories/{id}/checkin:
    post:
      summary: Check accessories in from a customer, no more than the customer holds
      parameters:
        - {$ref: "#/components/parameters/ID"}
      requestBody: {$ref: "#/components/requestBodies/Movement"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/customers:
    get:
      summary: A page of customers
      parameters:
        - {$ref: "#/components/parameters/Search"}
        - {$ref: "#/components/parameters/Page"}
        - {$ref: "#/components/parameters/PerPage"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "401": {$ref: "#/components/responses/Error"}
    post:
      summary: Create a customer (not CLIENT users)
      requestBody: {$ref: "#/components/requestBodies/Object"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "201": {$ref: "#/components/responses/Ok"}
        "403": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
  /api/v2/customers/{id}:
    parameters:
      - {$ref: "#/components/parameters/ID"}
    get:
      summary: One customer
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "404": {$ref: "#/components/responses/Error"}
    put:
      summary: Edit a customer (not CLIENT users)
      requestBody: {$ref: "#/components/requestBodies/Object"}
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
    delete:
      summary: Delete a customer; 409 while assets or accessories are assigned
      responses:
        default: {$ref: "#/components/responses/Error"}
        "200": {$ref: "#/components/responses/Ok"}
        "403": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "409": {$ref: "#/components/responses/Error"}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer, bearerFormat: JWT}
    apiKey: {type: apiKey, in: header, name: X-API-Key}
  parameters:
    ID: {name: id, in: path, required: true, schema: {type: integer}}
    AuditID: {name: audit_id, in: path, required: true, schema: {type: string}}
    Search: {name: search, in: query, schema: {type: string}}
    Page: {name: page, in: query, schema: {type: integer, minimum: 1}}
    PerPage: {name: per_page, in: query, schema: {type: integer, minimum: 1, maximum: 100}}
  requestBodies:
    Login:
      required: true
      content:
        application/json:
          schema:
            type: object
            required: [email, password, device_name]
            properties:
              email: {type: string}
              password: {type: string}
              device_name: {type: string}
    Start:
      required: true
      content:
        application/json:
          schema:
            type: object
            required: [country]
            properties:
              country: {type: string, example: SG}
    Scan:
      required: true
      content:
        application/json:
          schema: {$ref: "#/components/schemas/ScanInput"}
    End:
      required: true
      content:
        application/json:
          schema:
            type: object
            properties:
              audit_id: {type: string}
    Movement:
      required: true
      content:
        application/json:
          schema:
            type: object
            required: [customer_id]
            properties:
              customer_id: {type: integer}
              quantity: {type: integer, minimum: 1, default: 1}
              condition: {type: string}
              notes: {type: string}
    Object:
      required: true
      content:
        application/json:
          schema: {type: object}
  schemas:
    ScanInput:
      type: object
      required: [identifier]
      properties:
        identifier: {type: string, maxLength: 128}
        audit_id: {type: string}
        scan_id: {type: string}
        source: {type: string, enum: [camera, image, manual]}
        scanned_at: {type: string, format: date-time}
        device_name: {type: string}
    Success:
      type: object
      required: [success, data, message]
      properties:
        success: {type: boolean, enum: [true]}
        data: {}
        message: {type: string}
    Failure:
      type: object
      required: [success, error, message]
      properties:
        success: {type: boolean, enum: [false]}
        error: {type: string, example: VALIDATION_ERROR}
        message: {type: string}
        errors:
          type: object
          additionalProperties: {type: array, items: {type: string}}
        data: {type: object}
  responses:
    Ok:
      description: Success
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Success"}
    Error:
      description: Failure, with the error envelope (any status an operation does not list)
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Failure"}
"""#
}
