-- The render pipeline: leases for executors, the webhook outbox, per-account webhook secrets.
ALTER TABLE renders
  ADD COLUMN attempts          integer NOT NULL DEFAULT 0,
  ADD COLUMN lease_owner       text,
  ADD COLUMN lease_expires_at  timestamptz,
  -- Where the finished MP4 lives in object storage; outputUrl is derived from it when read.
  ADD COLUMN output_key        text,
  ADD COLUMN output_deleted_at timestamptz;
CREATE INDEX renders_leases ON renders (lease_expires_at) WHERE status IN ('preparing', 'rendering');
CREATE INDEX renders_expiry ON renders (expires_at) WHERE output_key IS NOT NULL AND output_deleted_at IS NULL;

ALTER TABLE accounts ADD COLUMN webhook_secret text;

CREATE TABLE webhook_outbox (
  id              text PRIMARY KEY,
  account_id      text NOT NULL REFERENCES accounts (id),
  render_id       text NOT NULL,
  event_type      text NOT NULL CHECK (event_type IN ('render.completed', 'render.failed')),
  url             text NOT NULL,
  -- Frozen at the first delivery attempt so every retry carries the same bytes.
  payload         text,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  delivered_at    timestamptz,
  gave_up_at      timestamptz,
  last_status     integer,
  last_error      text,
  created_at      timestamptz NOT NULL
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE delivered_at IS NULL AND gave_up_at IS NULL;
