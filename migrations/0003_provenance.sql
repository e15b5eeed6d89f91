-- Provenance: where each answer came from, beside the engine that computed it.
--
-- source is `computed` for an answer this store's knights computed, `imported from FILE (...)`
-- for one added by `knights import` (with the source the file gave, if any), and
-- `sum of starts (...)` for an open board total added up from its start counts (with the
-- engines and sources of those starts). Such a total has the engine `sum`: no engine computed it.
--
-- Answers stored before this migration have an unknown source. Their open board totals under
-- the engine `memo` or `reference` were sums of their starts (neither engine counts a board
-- total), and are relabelled as such.

ALTER TABLE answers ADD COLUMN source TEXT NOT NULL DEFAULT 'unrecorded' CHECK (source <> '');

UPDATE answers
   SET engine = 'sum',
       source = 'sum of starts (' || engine || ', unrecorded)'
 WHERE kind = 'open' AND row IS NULL AND engine IN ('memo', 'reference');
