/**
 * The renderer's public surface: executors (in-process pool, Kubernetes pod) and the CLI call
 * `renderMovie` with a resolved document; everything else in worker/ is internal.
 */
export { type CodecChoice, chooseCodec } from './encoder-probe.ts';
export {
  type RenderOptions,
  type RenderProgress,
  type RenderResult,
  renderMovie,
  type WorkerConfig,
} from './render-movie.ts';
