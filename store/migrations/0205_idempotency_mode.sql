-- An account has live and test keys, and the two modes never see each other's resources: an
-- Idempotency-Key is scoped by the caller's key mode too, so a test key reusing a key its live
-- twin sent (same body or not) creates its own resource instead of a 409 (or a replay of a
-- resource it cannot see).
ALTER TABLE idempotency_keys ADD COLUMN mode text;
-- Existing records take the mode of the resource they point at (renders and scripts carry it).
UPDATE idempotency_keys i SET mode = r.mode FROM renders r WHERE i.resource_type = 'render' AND r.id = i.resource_id;
UPDATE idempotency_keys i SET mode = s.mode FROM scripts s WHERE i.resource_type = 'script' AND s.id = i.resource_id;
-- A record whose resource is gone could only ever be replayed as an error: the key is free again.
DELETE FROM idempotency_keys WHERE mode IS NULL;
ALTER TABLE idempotency_keys ALTER COLUMN mode SET NOT NULL;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_mode_check CHECK (mode IN ('live', 'test'));
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (account_id, mode, key);
