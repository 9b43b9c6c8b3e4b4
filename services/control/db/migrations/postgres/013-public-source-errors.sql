-- PostgreSQL twin of ../013-public-source-errors.sql: the same rewrite of sources.last_error
-- into "<code>: <fixed sentence>" (see that file for why). LIKE ... ESCAPE '\' reads the same
-- in PostgreSQL (standard_conforming_strings is on by default).
UPDATE sources SET last_error = CASE
    WHEN last_error LIKE 'unknown\_format:%' ESCAPE '\' THEN 'unknown_format: the county file is not in the format expected for this feed'
    WHEN last_error LIKE 'empty\_file:%' ESCAPE '\' THEN 'empty_file: the county file holds no rows'
    WHEN last_error LIKE 'truncated\_file:%' ESCAPE '\' THEN 'truncated_file: the county file was cut off before its end'
    WHEN last_error LIKE 'wrong\_county:%' ESCAPE '\' THEN 'wrong_county: the county file is for another county'
    WHEN last_error LIKE 'unreadable\_file:%' ESCAPE '\' THEN 'unreadable_file: the county file could not be read'
    WHEN last_error LIKE 'no\_valid\_rows:%' ESCAPE '\' THEN 'no_valid_rows: no row of the county file passed validation'
    ELSE 'check_failed: the last check of this feed failed'
  END
WHERE last_error IS NOT NULL;
