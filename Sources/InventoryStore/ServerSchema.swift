import GRDB

/// Migrations for the server's users, their tokens and the devices they log in from.
/// Registered by name in `Schema.migrator`; like every migration, they never change once shipped.
enum ServerSchema {
    /// Server side: users with bcrypt hashes, revoked tokens, and the server's secrets.
    static func users(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE users (
                    id INTEGER PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (email <> ''),
                    name TEXT NOT NULL CHECK (name <> ''),
                    password_hash TEXT NOT NULL CHECK (password_hash LIKE '$2%'),
                    user_type TEXT NOT NULL CHECK (user_type IN ('ADMIN','STAFF','CLIENT')),
                    can_edit_assets BOOLEAN NOT NULL DEFAULT 0,
                    countries TEXT NOT NULL DEFAULT '',
                    created_at DATETIME NOT NULL);
                CREATE TABLE revoked_tokens (
                    token_id TEXT PRIMARY KEY,
                    expires_at DATETIME NOT NULL) WITHOUT ROWID;
                CREATE TABLE server_secrets (
                    name TEXT PRIMARY KEY,
                    value BLOB NOT NULL) WITHOUT ROWID;
                """)
    }

    /// Users get ids that are never handed out again (AUTOINCREMENT), a random token key that
    /// tokens must carry, and a disabled mark. The signing secret leaves the database: it
    /// lives in a key file of mode 0600 or in the environment, so tokens signed with the old
    /// one stop working.
    static func userKeys(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE users_v2 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (email <> ''),
                    name TEXT NOT NULL CHECK (name <> ''),
                    password_hash TEXT NOT NULL CHECK (password_hash LIKE '$2%'),
                    user_type TEXT NOT NULL CHECK (user_type IN ('ADMIN','STAFF','CLIENT')),
                    can_edit_assets BOOLEAN NOT NULL DEFAULT 0,
                    countries TEXT NOT NULL DEFAULT '',
                    created_at DATETIME NOT NULL,
                    token_key TEXT NOT NULL UNIQUE CHECK (length(token_key) >= 32),
                    disabled_at DATETIME);
                INSERT INTO users_v2 (id, email, name, password_hash, user_type, can_edit_assets, countries, created_at, token_key)
                    SELECT id, email, name, password_hash, user_type, can_edit_assets, countries, created_at, lower(hex(randomblob(16)))
                    FROM users;
                DROP TABLE users;
                ALTER TABLE users_v2 RENAME TO users;
                DROP TABLE server_secrets;
                """)
    }

    /// Server side: the devices users log in from (seed 000's device_name), with the push
    /// token a device may register; scans are counted per device name from `scans`.
    static func devices(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE devices (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device_name TEXT NOT NULL CHECK (device_name <> ''),
                    platform TEXT,
                    push_token TEXT,
                    created_at DATETIME NOT NULL,
                    last_login_at DATETIME NOT NULL,
                    UNIQUE (user_id, device_name));
                CREATE INDEX scans_station_user ON scans(station, user);
                """)
    }
}
