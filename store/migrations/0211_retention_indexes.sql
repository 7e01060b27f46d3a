-- The retention sweeper (api/execution/output-sweeper.ts sweepRows) deletes idempotency records
-- past their 24-hour window and webhook deliveries finished longer ago than
-- WEBHOOK_RETENTION_DAYS; before it, both tables grew for ever. These indexes let it find them
-- without reading the whole table.
CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at);
CREATE INDEX IF NOT EXISTS webhook_outbox_finished ON webhook_outbox (coalesce(delivered_at, gave_up_at))
  WHERE delivered_at IS NOT NULL OR gave_up_at IS NOT NULL;
