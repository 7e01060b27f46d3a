import { createAccountWithKey } from './api/auth/provision.ts';
import { createLogger } from './lib/logger.ts';
import { openDatabase } from './store/database.ts';
import { insertQueuedRender } from './test/services/cluster-fixture.ts';
const db = await openDatabase({ databaseUrl: process.argv[2], logger: createLogger({ level: 'warn' }) } as never);
const sql = db.sql;
const { account, key } = await createAccountWithKey(db, { plan: 'pro', credits: 1e9 });
const tpl = await insertQueuedRender(sql, { accountId: account.id, keyId: key.row.id, movie: { scenes: [] } });
await sql.unsafe("DELETE FROM renders WHERE id LIKE 'rnd_f%' OR id LIKE 'rnd_r%' OR id LIKE 'rnd_q%'");
const t = Date.now();
await sql.unsafe(`INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, width, height, fps, estimated_sec, reserved_credits, created_at, updated_at, lease_owner, lease_expires_at, attempts)
 SELECT 'rnd_f' || g, account_id, mode, key_id, 'done', 100, draft, watermark, movie, width, height, fps, estimated_sec, 0, now() - (g || ' s')::interval, now(), NULL, NULL, 1 FROM renders, generate_series(1, 100000) g WHERE id = '${tpl.id}'`);
await sql.unsafe(`INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, width, height, fps, estimated_sec, reserved_credits, created_at, updated_at, lease_owner, lease_expires_at, attempts)
 SELECT 'rnd_r' || g, account_id, mode, key_id, 'rendering', 50, draft, watermark, movie, width, height, fps, estimated_sec, 0, now() - (g || ' ms')::interval, now(), 'w' || g, clock_timestamp() + interval '60 s', 1 FROM renders, generate_series(1, 10000) g WHERE id = '${tpl.id}'`);
await sql.unsafe(`INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, width, height, fps, estimated_sec, reserved_credits, created_at, updated_at, attempts)
 SELECT 'rnd_q' || g, account_id, mode, key_id, 'queued', 0, draft, watermark, movie, width, height, fps, estimated_sec, 0, now() - (g || ' ms')::interval, now(), 0 FROM renders, generate_series(1, 5000) g WHERE id = '${tpl.id}'`);
await sql`ANALYZE renders`;
console.log('seeded ms', Date.now() - t);
const q = async (label: string, text: string) => { const rows = await sql.unsafe(`EXPLAIN (ANALYZE, BUFFERS) ${text}`); console.log('---', label); for (const r of rows) console.log(Object.values(r)[0]); };
await q('claim (now)', `SELECT id, status FROM renders WHERE (status = 'queued' OR (status IN ('preparing', 'rendering') AND lease_expires_at <= clock_timestamp() AND attempts < 3)) ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`);
await q('abandoned (now)', `SELECT id FROM renders WHERE status IN ('preparing', 'rendering') AND lease_expires_at <= clock_timestamp() AND attempts >= 3`);
await q('abandoned (initplan)', `SELECT id FROM renders WHERE status IN ('preparing', 'rendering') AND lease_expires_at <= (SELECT clock_timestamp()) AND attempts >= 3`);
await q('claim queued', `SELECT id, status FROM renders WHERE status = 'queued' ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`);
await q('claim expired', `SELECT id, status FROM renders WHERE status IN ('preparing', 'rendering') AND lease_expires_at <= (SELECT clock_timestamp()) AND attempts < 3 ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`);
await q('claim bitmapor', `SELECT id, status FROM renders WHERE (status = 'queued' OR (status IN ('preparing', 'rendering') AND lease_expires_at <= (SELECT clock_timestamp()) AND attempts < 3)) ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`);
await q('heartbeat', `UPDATE renders SET lease_expires_at = clock_timestamp() + interval '60 s' WHERE id = 'rnd_r5' AND lease_owner = 'w5' AND status IN ('preparing', 'rendering') RETURNING id`);
await db.close();
