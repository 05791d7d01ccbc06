import { Router } from 'express';
import type { AppDeps } from '../context';

/** files routes (to be filled in). */
export function filesRouter(_deps: AppDeps): Router {
  return Router();
}
