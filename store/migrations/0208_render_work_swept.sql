-- When the API's sweeper looked for the work objects a render spread over pods left in the object
-- store (work/<id>/: the prepare pod's plan and files, the segments) and removed them: the join
-- removes them when it succeeds, the sweeper whatever a failed or cut-short render left
-- (api/pipeline/output-sweeper.ts). Renders that finished before this column existed never had any.
ALTER TABLE renders ADD COLUMN IF NOT EXISTS work_swept_at timestamptz;
UPDATE renders SET work_swept_at = updated_at WHERE status IN ('done', 'failed') AND work_swept_at IS NULL;
CREATE INDEX IF NOT EXISTS renders_work_unswept ON renders (updated_at) WHERE work_swept_at IS NULL;
