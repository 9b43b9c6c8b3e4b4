-- A source row's last_error is served to every customer (/api/v1/sources, list_sources, CSV).
-- Until issue 23 (item 5) it held a rejected file's full message: absolute server paths and up
-- to 200 characters of the county file. From now on the worker writes "<code>: <fixed sentence>"
-- (indexer/errors.ts, PUBLIC_REJECTION_MESSAGES) and the full text stays in ingest_runs. Rows
-- written before are rewritten the same way. The code is read off the prefix the worker itself
-- wrote ("<code>: "); the sentences are those of PUBLIC_REJECTION_MESSAGES on the day this
-- shipped, and anything else becomes a plain "check_failed" so no stored text stays public.
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
