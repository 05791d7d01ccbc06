import { Router } from 'express';
import type { AppDeps } from '../context';

/** jobs routes (to be filled in). */
export function jobsRouter(_deps: AppDeps): Router {
  return Router();
}
