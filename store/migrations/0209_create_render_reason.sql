-- framewright_create_render (0203, 0204) becomes the one place that decides whether a render may
-- be created: it answers why not instead of a bare false, and the API only maps that reason to a
-- catalogued error (api/billing/gate.ts gateError). The TypeScript copy of the checks (gateRender)
-- and the transactional second pass that found out the reason are gone.
--
-- It decides with the account's plan as stored, looked up in the plan rules the API sends
-- (p_plans: {"<plan>": {"concurrency": n, "webhooks": bool, "watermark": bool}}, configuration),
-- so a key cached with an older plan is gated by the new one. In order:
--   no_account            the account row is gone
--   unknown_plan          the account's plan is not in p_plans
--   webhooks_not_allowed  a webhook_url on a plan without webhooks
--   concurrency           the account already has `concurrency` renders queued or in progress
--   insufficient_credits  p_reserved_credits > balance - credits reserved by those renders
--   ok                    the queued render is inserted
-- The numbers behind the answer come back with it (for the error's message), and the watermark
-- the render carries (drafts, test-mode keys and watermarked plans) with 'ok'.
-- Called alone it is one round trip; inside a transaction (an Idempotency-Key) it re-locks the
-- account row the transaction already holds.
--
-- The 0204 signature is kept, not dropped: during a rolling upgrade the API processes of the
-- previous release still call it, and their POST /v1/renders must keep working until they are
-- replaced (this release never calls it; a later migration may drop it).
CREATE FUNCTION framewright_create_render(
  p_id text, p_account_id text, p_mode text, p_key_id text, p_draft boolean,
  p_movie jsonb, p_width integer, p_height integer, p_fps integer, p_estimated_sec double precision,
  p_reserved_credits bigint, p_template_id text, p_webhook_url text, p_created_at timestamptz,
  p_plans jsonb,
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
  INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, width, height,
    fps, estimated_sec, reserved_credits, template_id, webhook_url, created_at, updated_at)
  VALUES (p_id, p_account_id, p_mode, p_key_id, 'queued', 0, p_draft, render_watermark, p_movie, p_width, p_height,
    p_fps, p_estimated_sec, p_reserved_credits, p_template_id, p_webhook_url, p_created_at, p_created_at);
  reason := 'ok';
END;
$$;
