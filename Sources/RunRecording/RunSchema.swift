import GRDB

/// The tables of `run.sqlite` (documented in docs/RECORDING.md): every bus event, a row per trip
/// kept current as events arrive, processes' health reports, and per-minute KPIs as a view.
public enum RunSchema {
    /// Creates the tables on a new database; an existing one is left as it is.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE run (
                        key TEXT PRIMARY KEY,
                        value TEXT NOT NULL);
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY,
                        sender TEXT NOT NULL,
                        generation INTEGER NOT NULL,
                        sequence INTEGER NOT NULL,
                        sim_time_ms INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        request_id TEXT, rider_id TEXT, driver_id TEXT,
                        trip_state TEXT, driver_state TEXT,
                        lat REAL, lon REAL,
                        fare_cents INTEGER, surge REAL, pickup_wait_s INTEGER,
                        cancelled_by TEXT, reason TEXT, zone TEXT, session_id TEXT,
                        UNIQUE (sender, generation, sequence));
                    CREATE INDEX events_by_request ON events (request_id);
                    CREATE INDEX events_by_time ON events (sim_time_ms);
                    CREATE TABLE trips (
                        request_id TEXT PRIMARY KEY,
                        rider_id TEXT,
                        requested_ms INTEGER NOT NULL,
                        pickup_lat REAL, pickup_lon REAL,
                        quoted_cents INTEGER, surge REAL,
                        offers INTEGER NOT NULL DEFAULT 0,
                        declines INTEGER NOT NULL DEFAULT 0,
                        driver_id TEXT, assigned_ms INTEGER,
                        picked_up_ms INTEGER, pickup_wait_s INTEGER,
                        ended_ms INTEGER, outcome TEXT,
                        fare_cents INTEGER, cancelled_by TEXT, reason TEXT);
                    CREATE TABLE process_status (
                        process_id TEXT NOT NULL,
                        sim_time_ms INTEGER NOT NULL,
                        role TEXT NOT NULL,
                        pid INTEGER,
                        messages_in INTEGER, messages_out INTEGER, malformed INTEGER,
                        apps INTEGER, apps_finished INTEGER,
                        cpu_seconds REAL, rss_bytes INTEGER,
                        leaks INTEGER, lag_ms INTEGER);
                    CREATE INDEX status_by_process ON process_status (process_id, sim_time_ms);
                    """)
        }
        // Trips keep where they went and the zones they began and ended in; a health report is
        // stored once however often the recording is imported.
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE trips ADD COLUMN product TEXT;
                    ALTER TABLE trips ADD COLUMN pickup_zone TEXT;
                    ALTER TABLE trips ADD COLUMN dropoff_lat REAL;
                    ALTER TABLE trips ADD COLUMN dropoff_lon REAL;
                    ALTER TABLE trips ADD COLUMN dropoff_zone TEXT;
                    ALTER TABLE trips ADD COLUMN trip_m INTEGER;
                    ALTER TABLE trips ADD COLUMN driver_earns_cents INTEGER;
                    DELETE FROM process_status WHERE rowid NOT IN (
                        SELECT MIN(rowid) FROM process_status
                        GROUP BY process_id, pid, sim_time_ms, messages_in, messages_out, cpu_seconds);
                    CREATE UNIQUE INDEX status_once
                        ON process_status (process_id, pid, sim_time_ms, messages_in, messages_out, cpu_seconds);
                    """)
        }
        // The events of each minute (made in v1 until a request handed across a shard border, created
        // again at its new shard, had to be counted once, in the minute its rider asked).
        migrator.registerMigration("v3") { db in
            try db.execute(
                sql: """
                    DROP VIEW IF EXISTS minute_kpis;
                    CREATE VIEW minute_kpis AS
                    SELECT sim_time_ms / 60000 AS minute,
                           SUM(kind = 'requestCreated' AND NOT EXISTS (
                               SELECT 1 FROM events AS first
                               WHERE first.kind = 'requestCreated' AND first.request_id = events.request_id
                                 AND (first.sim_time_ms, first.sender, first.sequence)
                                     < (events.sim_time_ms, events.sender, events.sequence))) AS requests,
                           SUM(kind = 'requestHandedOver') AS handed_over,
                           SUM(kind = 'offerSent') AS offers,
                           SUM(kind = 'offerAccepted') AS matched,
                           SUM(kind IN ('offerDeclined', 'offerExpired')) AS declined,
                           SUM(kind = 'tripStarted') AS pickups,
                           SUM(kind = 'tripCompleted') AS completed,
                           SUM(kind = 'requestCancelled') AS cancelled,
                           SUM(kind = 'requestRejected') AS rejected,
                           ROUND(AVG(CASE WHEN kind = 'tripStarted' THEN pickup_wait_s END), 1) AS mean_pickup_wait_s,
                           SUM(CASE WHEN kind = 'tripCompleted' THEN fare_cents ELSE 0 END) AS fares_cents,
                           MAX(CASE WHEN kind = 'surgeUpdated' THEN surge END) AS max_surge
                    FROM events
                    GROUP BY minute
                    ORDER BY minute;
                    """)
        }
        return migrator
    }
}
