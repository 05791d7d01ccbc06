import { Router } from 'express';
import type { AppDeps } from '../context';

/** openapi routes (to be filled in). */
export function openapiRouter(_deps: AppDeps): Router {
  return Router();
}
