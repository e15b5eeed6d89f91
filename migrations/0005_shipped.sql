-- The results that ship with knights (the files of data/ that knights computed) enter every
-- store once per release, through the same gate as an import. This table remembers which
-- releases' results a store has taken in, so that later runs need not pass them again.

CREATE TABLE shipped (
    release     TEXT PRIMARY KEY CHECK (release <> ''),
    admitted_at TEXT NOT NULL
) STRICT;
