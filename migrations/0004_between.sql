-- Tours between two squares: open tours from the start (row, col) that end on (to_row, to_col),
-- counted in that direction. A pair and its reverse have the same count, so one row keeps the
-- pair in the order that is least under the board's symmetries (see `Question::between`).
--
-- SQLite cannot add a CHECK to a table, and to_row and to_col must be tied to the kind: the
-- table is rebuilt with them, every row and column (source included) copied as it is.

INSERT INTO kinds (name, description) VALUES
    ('between', 'open tours from a start square to an end square, each walked from the start');

CREATE TABLE answers_0004 (
    rows        INTEGER NOT NULL CHECK (rows >= 1),
    cols        INTEGER NOT NULL CHECK (cols >= rows),
    kind        TEXT    NOT NULL REFERENCES kinds (name),
    row         INTEGER CHECK (row BETWEEN 0 AND rows - 1),
    col         INTEGER CHECK (col BETWEEN 0 AND cols - 1),
    count       TEXT    NOT NULL CHECK (
                    count <> '' AND count NOT GLOB '*[^0-9]*'
                    AND (count = '0' OR count NOT GLOB '0*')),
    engine      TEXT    NOT NULL,
    version     TEXT    NOT NULL,
    seconds     REAL    NOT NULL CHECK (seconds >= 0),
    computed_at TEXT    NOT NULL,
    source      TEXT    NOT NULL DEFAULT 'unrecorded' CHECK (source <> ''),
    to_row      INTEGER CHECK (to_row BETWEEN 0 AND rows - 1),
    to_col      INTEGER CHECK (to_col BETWEEN 0 AND cols - 1),
    CHECK ((row IS NULL) = (col IS NULL)),
    CHECK ((to_row IS NULL) = (to_col IS NULL)),
    -- An end exactly when the kind is `between`, which also has a start, another square.
    CHECK ((kind = 'between') = (to_row IS NOT NULL)),
    CHECK (kind <> 'between' OR (row IS NOT NULL AND (row <> to_row OR col <> to_col)))
) STRICT;

INSERT INTO answers_0004
       (rows, cols, kind, row, col, count, engine, version, seconds, computed_at, source)
SELECT rows, cols, kind, row, col, count, engine, version, seconds, computed_at, source
  FROM answers;

DROP TABLE answers;

ALTER TABLE answers_0004 RENAME TO answers;

CREATE UNIQUE INDEX answers_question
    ON answers (rows, cols, kind, coalesce(row, -1), coalesce(col, -1),
                coalesce(to_row, -1), coalesce(to_col, -1));
