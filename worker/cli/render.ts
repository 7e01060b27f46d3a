import { readFileSync } from 'node:fs';
import { AppError, ERROR_CATALOG, isErrorCode } from '../../lib/errors.ts';
import { createLogger } from '../../lib/logger.ts';
import { validateMovie } from '../../movie/index.ts';
import type { RenderProgress } from '../run/prepare-render.ts';
import { renderMovie } from '../run/render-movie.ts';
import { workerConfigFromEnv } from './config.ts';

/** `framewright render`'s arguments, checked by bin/commands.ts. */
export interface RenderCommandOptions {
  /** The movie document's file. */
  movie: string;
  /** The MP4 file to write. */
  output: string;
  /** 1-64 */
  parallel: number;
  json?: boolean;
  draft?: boolean;
  watermark?: boolean;
}

/** `framewright render`: exit 0, or the catalog exit number of the failure with its code printed. */
export async function main(values: RenderCommandOptions): Promise<number> {
  const { movie: input, output, parallel } = values;
  const json = values.json === true;
  const report = json ? jsonReporter() : process.stderr.isTTY ? barReporter() : lineReporter();
  const fail = (code: keyof typeof ERROR_CATALOG, message: string, path?: string, extra?: object) => {
    if (json) process.stdout.write(`${JSON.stringify({ event: 'failed', code, message, path, ...extra })}\n`);
    else process.stderr.write(`\nframewright render: ${code}${path ? ` at ${path}` : ''}: ${message}\n`);
    return ERROR_CATALOG[code].exit;
  };

  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(input, 'utf8'));
  } catch (err) {
    return fail('VALIDATION_ERROR', `Cannot read ${input} as JSON: ${(err as Error).message}`);
  }
  const checked = validateMovie(doc);
  if (!checked.ok) {
    const first = checked.findings[0]!;
    if (!json)
      for (const f of checked.findings.slice(1)) process.stderr.write(`  also ${f.code} at ${f.path}: ${f.message}\n`);
    return fail(first.code, first.message, first.path, { findings: checked.findings });
  }
  const controller = new AbortController();
  const onSignal = () => controller.abort(new AppError('RENDER_FAILED', 'Render interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const started = performance.now();
  try {
    const result = await renderMovie({
      movie: checked.value,
      output,
      draft: values.draft === true,
      watermark: values.watermark === true,
      parallel,
      signal: controller.signal,
      onProgress: report,
      config: workerConfigFromEnv(process.env),
      logger: createLogger({ level: process.env.LOG_LEVEL ?? 'warn', name: 'render' }),
    });
    const wallSec = (performance.now() - started) / 1000;
    if (json) process.stdout.write(`${JSON.stringify({ event: 'result', ...result, wallSec })}\n`);
    else {
      process.stderr.write(
        `\nRendered ${output}: ${result.width}x${result.height} ${result.fps} fps, ${result.durationSec.toFixed(2)} s, ` +
          `${result.codec}${result.hasAudio ? ' + aac' : ''}, in ${wallSec.toFixed(1)} s ` +
          `(${(result.durationSec / wallSec).toFixed(1)}x realtime)\n`,
      );
    }
    return 0;
  } catch (err) {
    if (err instanceof AppError && isErrorCode(err.code)) return fail(err.code, err.message, err.path);
    return fail('RENDER_FAILED', err instanceof Error ? err.message : String(err));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function jsonReporter() {
  return (e: RenderProgress) => process.stdout.write(`${JSON.stringify({ event: 'progress', ...e })}\n`);
}

/** Plain lines for logs and pipes: one per phase change and every 10 percent. */
function lineReporter() {
  let lastPhase = '';
  let lastBucket = -1;
  return (e: RenderProgress) => {
    const bucket = Math.floor(e.progress / 10);
    if (e.phase === lastPhase && bucket === lastBucket) return;
    lastPhase = e.phase;
    lastBucket = bucket;
    const extra = e.phase === 'rendering' ? ` frames ${e.framesDone}/${e.totalFrames}` : '';
    process.stderr.write(`${e.phase} ${e.progress}%${extra}\n`);
  };
}

function barReporter() {
  return (e: RenderProgress) => {
    const width = 30;
    const filled = Math.round((e.progress / 100) * width);
    const extra = e.phase === 'rendering' ? ` ${e.framesDone}/${e.totalFrames} frames` : '';
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(e.progress).padStart(3)}% ${e.phase}${extra}   `,
    );
  };
}
