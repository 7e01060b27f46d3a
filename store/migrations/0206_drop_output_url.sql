-- outputUrl is no longer stored: the API derives it from output_key and expires_at when it shows
-- a render (a signed link to its own download endpoint), so an executor that finishes a render
-- (the in-process pool or the cluster operator) records only what the worker reported, and a
-- change of the public URL or the signing secret applies to every render at once.
ALTER TABLE renders DROP COLUMN IF EXISTS output_url;
