-- POST /v1/renders in one round trip (see api/renders/create-render.ts). Locks the account row,
-- reads its active usage in a new statement (in a VOLATILE PL/pgSQL function each statement takes
-- a fresh snapshot, so it sees every render committed while this call waited for the lock), and
-- inserts the queued render only when the plan is the one the caller priced with and the
-- concurrency cap and the available credits allow it: the two checks of gateRender. No row back
-- means "take the transactional path", which checks again under the lock and answers the exact
-- error; nothing is written here in that case.
CREATE OR REPLACE FUNCTION framewright_create_render(
  p_id text, p_account_id text, p_mode text, p_key_id text, p_draft boolean, p_watermark boolean,
  p_movie jsonb, p_width integer, p_height integer, p_fps integer, p_estimated_sec double precision,
  p_reserved_credits bigint, p_template_id text, p_webhook_url text, p_created_at timestamptz,
  p_plan text, p_concurrency integer)
RETURNS SETOF renders
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  acc accounts;
  n_active integer;
  n_reserved bigint;
BEGIN
  SELECT * INTO acc FROM accounts WHERE id = p_account_id FOR UPDATE;
  IF NOT FOUND OR acc.plan <> p_plan THEN
    RETURN;
  END IF;
  SELECT count(*)::int, coalesce(sum(reserved_credits), 0)::bigint INTO n_active, n_reserved
    FROM renders WHERE account_id = p_account_id AND status IN ('queued', 'preparing', 'rendering');
  IF n_active >= p_concurrency OR p_reserved_credits > acc.credit_balance - n_reserved THEN
    RETURN;
  END IF;
  RETURN QUERY
    INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, width, height,
      fps, estimated_sec, reserved_credits, template_id, webhook_url, created_at, updated_at)
    VALUES (p_id, p_account_id, p_mode, p_key_id, 'queued', 0, p_draft, p_watermark, p_movie, p_width, p_height,
      p_fps, p_estimated_sec, p_reserved_credits, p_template_id, p_webhook_url, p_created_at, p_created_at)
    RETURNING *;
END;
$$;
