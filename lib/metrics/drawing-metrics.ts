import { Gauge, type Registry } from 'prom-client';

/** Which GL drew a render, as a worker reports it (worker/draw/backend/renderer.ts's GlRenderer). */
export interface DrawingReport {
  vendor: string;
  renderer: string;
  software: boolean;
}

/**
 * `framewright_drawing_renderer_info`: 1 for each GL this process's renders were drawn with (the
 * API's with the in-process executor, whose workers report it; the operator's in the cluster
 * shape, from the Renders' status.renderer). A GPU node pool whose series says
 * `software="true"` draws on llvmpipe: alert on it.
 */
export class DrawingMetrics {
  readonly info: Gauge<'vendor' | 'renderer' | 'software'>;

  constructor(registry: Registry) {
    this.info = new Gauge({
      name: 'framewright_drawing_renderer_info',
      help: 'Always 1: a GL renders were drawn with, by vendor, renderer and whether it is a software renderer (llvmpipe).',
      labelNames: ['vendor', 'renderer', 'software'] as const,
      registers: [registry],
    });
  }

  drew(r: DrawingReport): void {
    this.info.set({ vendor: r.vendor, renderer: r.renderer, software: String(r.software) }, 1);
  }
}
