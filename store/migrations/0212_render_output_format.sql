-- A render's output format (movie/output-kind.ts OUTPUT_FORMATS) is decided once, when it is
-- created, and stored with it: the API passes it (movieOutputFormat of the resolved movie, the one
-- reading of `output.format`), and everything after (executors, the operator's Render, workers, the
-- download and image routes, pricing) reads this column or the Render's spec.outputFormat. Nothing
-- reads it again from the movie, or guesses it from an object key's extension.
--
-- Existing rows get the format their movie asks for (absent: mp4, as movieOutputFormat says). The
-- 0209 signature of framewright_create_render stays for a rolling upgrade's previous API
-- processes, deciding the format the same way (api/billing/gate.test.ts holds the two readings
-- equal); this release calls the new one, with p_output_format.
ALTER TABLE renders ADD COLUMN output_format text;
UPDATE renders SET output_format = COALESCE(movie -> 'output' ->> 'format', 'mp4');
ALTER TABLE renders ALTER COLUMN output_format SET NOT NULL;

-- The 0204 signature (two releases back; no API process of the previous release calls it) would
-- now insert a render without its format: dropped, as 0209 foresaw.
DROP FUNCTION framewright_create_render(text, text, text, text, boolean, boolean, jsonb, integer, integer, integer,
  double precision, bigint, text, text, timestamptz, text, integer);

CREATE FUNCTION framewright_create_render(
  p_id text, p_account_id text, p_mode text, p_key_id text, p_draft boolean,
  p_movie jsonb, p_width integer, p_height integer, p_fps integer, p_estimated_sec double precision,
  p_reserved_credits bigint, p_template_id text, p_webhook_url text, p_created_at timestamptz,
  p_output_format text, p_plans jsonb,
  OUT reason text, OUT account_plan text, OUT plan_concurrency integer, OUT active_renders integer,
  OUT available_credits bigint, OUT render_watermark boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  acc_balance bigint;
  rules jsonb;
  n_reserved bigint;
BEGIN
  SELECT a.plan, a.credit_balance INTO account_plan, acc_balance FROM accounts a WHERE a.id = p_account_id FOR UPDATE;
  IF NOT FOUND THEN
    reason := 'no_account';
    RETURN;
  END IF;
  rules := p_plans -> account_plan;
  IF rules IS NULL THEN
    reason := 'unknown_plan';
    RETURN;
  END IF;
  plan_concurrency := (rules ->> 'concurrency')::integer;
  IF p_webhook_url IS NOT NULL AND NOT (rules ->> 'webhooks')::boolean THEN
    reason := 'webhooks_not_allowed';
    RETURN;
  END IF;
  -- A new statement, so a new snapshot: it sees every render committed while this call waited
  -- for the account lock.
  SELECT count(*)::int, coalesce(sum(r.reserved_credits), 0)::bigint INTO active_renders, n_reserved
    FROM renders r WHERE r.account_id = p_account_id AND r.status IN ('queued', 'preparing', 'rendering');
  available_credits := acc_balance - n_reserved;
  IF active_renders >= plan_concurrency THEN
    reason := 'concurrency';
    RETURN;
  END IF;
  IF p_reserved_credits > available_credits THEN
    reason := 'insufficient_credits';
    RETURN;
  END IF;
  render_watermark := p_draft OR p_mode = 'test' OR (rules ->> 'watermark')::boolean;
  INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, output_format,
    width, height, fps, estimated_sec, reserved_credits, template_id, webhook_url, created_at, updated_at)
  VALUES (p_id, p_account_id, p_mode, p_key_id, 'queued', 0, p_draft, render_watermark, p_movie, p_output_format,
    p_width, p_height, p_fps, p_estimated_sec, p_reserved_credits, p_template_id, p_webhook_url, p_created_at,
    p_created_at);
  reason := 'ok';
END;
$$;

CREATE OR REPLACE FUNCTION framewright_create_render(
  p_id text, p_account_id text, p_mode text, p_key_id text, p_draft boolean,
  p_movie jsonb, p_width integer, p_height integer, p_fps integer, p_estimated_sec double precision,
  p_reserved_credits bigint, p_template_id text, p_webhook_url text, p_created_at timestamptz,
  p_plans jsonb,
  OUT reason text, OUT account_plan text, OUT plan_concurrency integer, OUT active_renders integer,
  OUT available_credits bigint, OUT render_watermark boolean)
LANGUAGE sql VOLATILE AS $$
  SELECT * FROM framewright_create_render(p_id, p_account_id, p_mode, p_key_id, p_draft, p_movie, p_width,
    p_height, p_fps, p_estimated_sec, p_reserved_credits, p_template_id, p_webhook_url, p_created_at,
    COALESCE(p_movie -> 'output' ->> 'format', 'mp4'), p_plans);
$$;
