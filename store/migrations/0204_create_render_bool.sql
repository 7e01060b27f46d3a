-- framewright_create_render (0203) answers true when it inserted and false when the caller must
-- take the transactional path, instead of returning the new row. The caller already holds every
-- value of that row (renders-repo.ts: queuedRenderRow), so sending it back only cost the database
-- the output of ~30 columns (the movie jsonb among them) and the client their parsing, on every
-- POST /v1/renders. The account read keeps the two columns the checks use.
DROP FUNCTION IF EXISTS framewright_create_render(text, text, text, text, boolean, boolean, jsonb, integer,
  integer, integer, double precision, bigint, text, text, timestamptz, text, integer);
CREATE FUNCTION framewright_create_render(
  p_id text, p_account_id text, p_mode text, p_key_id text, p_draft boolean, p_watermark boolean,
  p_movie jsonb, p_width integer, p_height integer, p_fps integer, p_estimated_sec double precision,
  p_reserved_credits bigint, p_template_id text, p_webhook_url text, p_created_at timestamptz,
  p_plan text, p_concurrency integer)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  acc_plan text;
  acc_balance bigint;
  n_active integer;
  n_reserved bigint;
BEGIN
  SELECT plan, credit_balance INTO acc_plan, acc_balance FROM accounts WHERE id = p_account_id FOR UPDATE;
  IF NOT FOUND OR acc_plan <> p_plan THEN
    RETURN false;
  END IF;
  SELECT count(*)::int, coalesce(sum(reserved_credits), 0)::bigint INTO n_active, n_reserved
    FROM renders WHERE account_id = p_account_id AND status IN ('queued', 'preparing', 'rendering');
  IF n_active >= p_concurrency OR p_reserved_credits > acc_balance - n_reserved THEN
    RETURN false;
  END IF;
  INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, width, height,
    fps, estimated_sec, reserved_credits, template_id, webhook_url, created_at, updated_at)
  VALUES (p_id, p_account_id, p_mode, p_key_id, 'queued', 0, p_draft, p_watermark, p_movie, p_width, p_height,
    p_fps, p_estimated_sec, p_reserved_credits, p_template_id, p_webhook_url, p_created_at, p_created_at);
  RETURN true;
END;
$$;
