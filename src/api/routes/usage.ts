import { Router } from 'express';
import type { AppDeps } from '../context';

/** usage routes (to be filled in). */
export function usageRouter(_deps: AppDeps): Router {
  return Router();
}
