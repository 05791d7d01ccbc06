import { Router } from 'express';
import type { AppDeps } from '../context';
import { buildOpenApiDocument } from '../openapi';

/** `GET /openapi.json`: public, like /health. Built once per app; the schemas are static. */
export function openapiRouter(deps: AppDeps): Router {
  const r = Router();
  let doc: ReturnType<typeof buildOpenApiDocument> | null = null;
  r.get('/openapi.json', (_req, res) => {
    doc ??= buildOpenApiDocument(deps.config);
    res.json(doc);
  });
  return r;
}
