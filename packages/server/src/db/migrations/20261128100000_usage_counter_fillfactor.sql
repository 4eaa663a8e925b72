-- Decision 0043. Every usage report updates its counter's row. With full pages (the default
-- fillfactor of 100) the new version of a row rarely fits beside the old one, so most updates
-- were not HOT: they wrote a new index entry and left the table growing (17% HOT in a run of
-- 400,000 updates of 1,000 counters). A quarter-full page keeps a counter's versions on its
-- page (78% HOT in the same run), which costs a few pages for tables of this size.
ALTER TABLE usage_counters SET (fillfactor = 25);
