-- The answer store: one row per canonical question.
--
-- A question is canonical when its board has rows <= cols and its start square is the least
-- square of its orbit under the board's symmetries; a board total has no start (row and col
-- are NULL). Counts are exact, as decimal digits without leading zeros.

CREATE TABLE kinds (
    name        TEXT PRIMARY KEY,
    description TEXT NOT NULL
) STRICT;

INSERT INTO kinds (name, description) VALUES
    ('open', 'open tours (Hamiltonian paths of the knight graph), each direction counted');

CREATE TABLE answers (
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
    CHECK ((row IS NULL) = (col IS NULL))
) STRICT;

CREATE UNIQUE INDEX answers_question
    ON answers (rows, cols, kind, coalesce(row, -1), coalesce(col, -1));
