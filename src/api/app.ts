/**
 * Builds the Express app. Only the entry point listens, so tests drive the app directly.
 */
import express, { type Express } from 'express';
import { requestLogging, requestMetrics } from '../observability/http';
import { authenticate } from './auth';
import type { AppDeps } from './context';
import { errorMiddleware, NotFoundError } from './errors';
import { metricsRoute } from './metrics';
import { routeSpecs } from './route-specs';
import { enforceRouteContracts } from './route-contract';
import { filesRouter } from './routes/files';
import { healthRouter } from './routes/health';
import { jobsRouter } from './routes/jobs';
import { manuscriptRouter } from './routes/manuscript';
import { openapiRouter } from './routes/openapi';
import { projectsRouter } from './routes/projects';
import { sessionsRouter } from './routes/sessions';
import { sessionFeedRouter } from './routes/session-feed';
import { skillsRouter } from './routes/skills';
import { exportRouter } from './routes/export';
import { turnsRouter } from './routes/turns';
import { usageRouter } from './routes/usage';
import { rejectDangerousInput } from './validation';
import { rateLimits } from './rate-limit';
import { studioRouter } from './studio';

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestLogging(deps.logger));
  app.use(requestMetrics());
  app.use(express.json({ limit: deps.config.BODY_LIMIT_BYTES, strict: true }));
  app.use(rejectDangerousInput);
  // Every documented route's params, query and body are checked before any handler reads
  // state: the public routes here, the others once the caller is known (a stranger gets 401).
  const specs = routeSpecs(deps.config);
  app.use(enforceRouteContracts(specs.filter((s) => s.public)));
  // Not a user's route: METRICS_TOKEN or METRICS_PORT guard it once API_TOKENS is set (metrics.ts).
  app.get('/metrics', metricsRoute(deps.config));
  app.use(healthRouter(deps));

  const api = express.Router();
  // The OpenAPI document is public, like /health.
  api.use(openapiRouter(deps));
  api.use(authenticate({ tokens: deps.config.meta.auth.tokens }));
  api.use(enforceRouteContracts(specs.filter((s) => !s.public)));
  api.use(rateLimits(deps));
  api.use(projectsRouter(deps));
  api.use(sessionsRouter(deps));
  api.use(turnsRouter(deps));
  api.use(filesRouter(deps));
  api.use(manuscriptRouter(deps));
  api.use(usageRouter(deps));
  api.use(jobsRouter(deps));
  api.use(skillsRouter(deps));
  api.use(sessionFeedRouter(deps));
  api.use(exportRouter(deps));
  api.use((req, _res, next) => next(new NotFoundError(`route ${req.method} ${req.path}`)));
  app.use('/api/v1', api);
  // The author's web app (a static build that uses only the public API above).
  app.use('/studio', studioRouter());
  app.use((req, _res, next) => next(new NotFoundError(`route ${req.method} ${req.path}`)));
  app.use(errorMiddleware(deps.logger));
  return app;
}
