/**
 * Worker Versioning (https://docs.temporal.io/worker-deployments): which deployment and build
 * a worker declares, whether it takes only work routed to its build, and how a new build is
 * made the deployment's current one. docs/operations.md says how an operator deploys, ramps,
 * rolls back and drains.
 *
 * A turn is pinned: it finishes on the build that started it, so a new build never replays a
 * turn it did not start. A job is pinned too and moves to the current build at a chapter
 * boundary (workflows/job.ts), where it continues as new with nothing but counters.
 */
import type { WorkflowService } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { WorkerDeploymentOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { Config } from './config';
import { buildIdOf, versioningMode } from './build-identity';

export { buildIdOf, versioningMode };

export function deploymentVersionOf(
  config: Pick<Config, 'SCRIPTORIUM_BUILD_ID' | 'WORKER_DEPLOYMENT_NAME'>,
): WorkerDeploymentVersion {
  return { deploymentName: config.WORKER_DEPLOYMENT_NAME, buildId: buildIdOf(config) };
}

/**
 * The worker's deployment options. Unversioned workers declare their build too, so Temporal UI
 * and `temporal workflow describe` name the build that ran each task either way.
 */
// PINNED is the worker's default for every workflow type, not a `setWorkflowOptions` annotation
// on the workflows: an annotated workflow fails every activation on an unversioned worker
// ("versioning behavior cannot be specified without deployment options…").
export function workerDeploymentOptions(config: Config): WorkerDeploymentOptions {
  const version = deploymentVersionOf(config);
  return versioningMode(config) === 'pinned'
    ? { version, useWorkerVersioning: true, defaultVersioningBehavior: 'PINNED' }
    : { version, useWorkerVersioning: false };
}

export type PromoteOutcome = 'promoted' | 'already-current' | 'left' | 'unversioned';

export interface PromoteOptions {
  workflowService: WorkflowService;
  namespace: string;
  version: WorkerDeploymentVersion;
  policy: Config['WORKER_PROMOTE'];
  logger?: Logger;
  /** How long to wait for the server to have seen this build poll (it registers the version). */
  timeoutMs?: number;
}

async function currentBuildOf(
  service: WorkflowService,
  namespace: string,
  deploymentName: string,
): Promise<string | null> {
  const res = await service.describeWorkerDeployment({ namespace, deploymentName });
  return res.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || null;
}

/**
 * Makes the worker's build current when its policy says so. Called once the worker polls: the
 * server only accepts a version it has seen poll, so not-found answers are retried until
 * `timeoutMs`.
 */
export async function promoteOnStart(opts: PromoteOptions): Promise<PromoteOutcome> {
  const { workflowService: service, namespace, version, policy } = opts;
  if (policy === 'never') return 'left';
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    try {
      const current = await currentBuildOf(service, namespace, version.deploymentName).catch((err: unknown) => {
        // A deployment the server has not seen yet has no current build.
        if (isNotFound(err)) return null;
        throw err;
      });
      if (current === version.buildId) return 'already-current';
      if (current && policy === 'if-none') {
        opts.logger?.info(
          { current, build: version.buildId },
          'build left beside the current one (WORKER_PROMOTE=if-none)',
        );
        return 'left';
      }
      await service.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        identity: `scriptorium-worker@${version.buildId}`,
        // A new build of a single-worker setup may poll fewer queues than the last one did.
        ignoreMissingTaskQueues: true,
      });
      opts.logger?.info({ build: version.buildId, previous: current }, 'build made current');
      return 'promoted';
    } catch (err) {
      if (Date.now() > deadline || !isNotYetSeen(err)) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function grpcCode(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}
function isNotFound(err: unknown): boolean {
  return grpcCode(err) === 5;
}
/** The version is not registered yet (its first poll is still on the way). */
function isNotYetSeen(err: unknown): boolean {
  const code = grpcCode(err);
  return code === 5 || code === 9 || /not found|no pollers|not yet/i.test((err as Error).message ?? '');
}

/**
 * After a worker starts polling: its build made current per WORKER_PROMOTE, when versioned.
 * A failure is logged, not thrown: the worker still serves what is routed to its build.
 */
export async function promoteStartedWorker(
  config: Config,
  workflowService: WorkflowService,
  logger: Logger,
): Promise<PromoteOutcome> {
  if (versioningMode(config) !== 'pinned') return 'unversioned';
  try {
    return await promoteOnStart({
      workflowService,
      namespace: config.TEMPORAL_NAMESPACE,
      version: deploymentVersionOf(config),
      policy: config.WORKER_PROMOTE,
      logger,
    });
  } catch (err) {
    logger.error(
      { err, build: buildIdOf(config) },
      'could not make this build current; it serves only work routed to it',
    );
    return 'left';
  }
}
