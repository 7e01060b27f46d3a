import { readFileSync } from 'node:fs';
import { AppError } from '../../../lib/errors.ts';
import type { TextureRef } from '../../plan/plan.ts';
import { drawingBackend } from '../backend/backend.ts';
import type { FrameHost } from './frame-renderer.ts';

/**
 * The worker's side of the frame graph's seams (frame-renderer.ts FrameHost): a headless-gl context
 * on the drawing backend (draw/backend/), and textures read from the files preparation wrote.
 */
export function workerFrameHost(): FrameHost {
  const backend = drawingBackend();
  const context = backend.createContext();
  if (!context) {
    throw new AppError(
      'RENDER_FAILED',
      `The drawing backend (${backend.name}) could not create a WebGL context (its error is in the process's stderr)`,
    );
  }
  return {
    context: context as unknown as FrameHost['context'],
    textureBytes: (ref: TextureRef) => readFileSync(ref.file),
  };
}
