/** Workflow entry points registered by the worker (the bundle's root module). */
export { turnWorkflow } from './turn';
export { jobWorkflow } from './job';
