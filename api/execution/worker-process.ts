import { isBuilt, ownModule } from '../../lib/module-path.ts';
import { SupervisedChild } from '../../lib/process/supervised-child.ts';

/** The CLI whose `worker` command the API forks: built, or the sources. */
const CLI = ownModule('../../bin/cli.ts', import.meta.url);
/** Built, the worker runs on bare Node; from the sources, through tsx (a development dependency). */
const WORKER_EXEC_ARGV = isBuilt(import.meta.url)
  ? ['--enable-source-maps']
  : ['--import', import.meta.resolve('tsx/esm')];

/**
 * A `framewright worker` process of this API process, with `env`: the in-process executor's render
 * workers and the preview store's preparing worker (api/previews/) are both this, and take their
 * calls over IPC (worker/job-protocol.ts). Tied to this process: it dies with it.
 */
export function workerProcess<Req, Res, Ev>(name: string, env: NodeJS.ProcessEnv): SupervisedChild<Req, Res, Ev> {
  return new SupervisedChild<Req, Res, Ev>({ name, module: CLI, args: ['worker'], execArgv: WORKER_EXEC_ARGV, env });
}
